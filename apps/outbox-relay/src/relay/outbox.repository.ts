import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Client, Pool } from 'pg';
import { trackConnectionPool } from '@platform/observability';
import { OUTBOX_CHANNEL, OutboxRelay, type RelayOptions, type RelayProducer } from '@platform/outbox';
import { RelayConfig } from '../config/relay.config';

/**
 * The relay's way to the services' outbox tables: its own small pool (it touches only outbox tables,
 * so it needs no ORM) and a dedicated LISTEN connection (pool connections are returned between queries).
 */
@Injectable()
export class OutboxRepository implements OnApplicationShutdown {
  private readonly pool: Pool;

  constructor(private readonly cfg: RelayConfig) {
    this.pool = new Pool({
      connectionString: cfg.DATABASE_URL,
      max: cfg.DB_POOL_MAX,
      application_name: `outbox-relay-${cfg.INSTANCE_ID}`,
    });
    // An idle client losing its connection must not crash the process; the pool replaces it.
    this.pool.on('error', () => undefined);
    trackConnectionPool('outbox-relay', () => (this.pool.ended ? undefined : this.pool));
  }

  /** libs/outbox's drain loop for one schema, running its claim, mark and purge statements on this pool. */
  relayFor(schema: string, producer: RelayProducer, options: RelayOptions): OutboxRelay {
    return new OutboxRelay(this.pool, schema, producer, options);
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  /**
   * Opens the LISTEN connection; `onNotify` gets the schema the writer named (the NOTIFY payload), and
   * `onLost` runs when the connection drops (the poll keeps draining meanwhile).
   */
  async listen(
    onNotify: (schema?: string) => void,
    onLost: (err: Error) => void,
  ): Promise<{ close(): Promise<void> }> {
    const client = new Client({
      connectionString: this.cfg.DATABASE_URL,
      application_name: `outbox-relay-listen-${this.cfg.INSTANCE_ID}`,
    });
    client.on('notification', (n) => onNotify(n.payload || undefined));
    client.on('error', onLost);
    await client.connect();
    await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
    return { close: () => client.end().catch(() => undefined) };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}
