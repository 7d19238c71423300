// Unscoped: an operator redrives dead-lettered outbox rows across organizations, like the relay.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { redriveDeadEvents, type OutboxRedriveFilter, type RedrivenEvent } from '@platform/outbox';
import { service } from '@platform/registry';

/**
 * Lending's dead-lettered outbox rows (docs/lending/events.md, "Dead letters and redrive"): an
 * operator's action across organizations, like the relay itself, so it runs on the service's own
 * connection, not in a tenant transaction.
 */
@Injectable()
export class OutboxRedriveRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  redrive(filter: OutboxRedriveFilter): Promise<RedrivenEvent[]> {
    return this.ds.transaction((m) => redriveDeadEvents(m, service('lending').schema, filter));
  }

  /** The dead rows, oldest first: what a redrive would pick (at most `limit`). */
  async dead(
    limit = 100,
  ): Promise<{ id: string; topic: string; eventType: string; deadAt: Date; lastError: string | null }[]> {
    const rows: {
      id: string;
      topic: string;
      event_type: string;
      dead_at: Date;
      last_error: string | null;
    }[] = await this.ds.query(
      `SELECT id, topic, event_type, dead_at, last_error FROM ${service('lending').schema}.outbox
          WHERE dead_at IS NOT NULL AND sent_at IS NULL ORDER BY seq LIMIT $1`,
      [limit],
    );
    return rows.map((r) => ({
      id: r.id,
      topic: r.topic,
      eventType: r.event_type,
      deadAt: r.dead_at,
      lastError: r.last_error,
    }));
  }
}
