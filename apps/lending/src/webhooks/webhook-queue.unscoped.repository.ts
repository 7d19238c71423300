// Unscoped: libs/webhooks' delivery tables, written in the caller's tenant transaction (row-level security applies there).
import { Injectable } from '@nestjs/common';
import type { LendingEventType } from '@platform/messaging';
import type { BindParam } from '@platform/outbox';
import { txManager, type Tx } from '@platform/persistence';
import { service } from '@platform/registry';
import type { OrganizationId } from '@platform/tenancy';
import { enqueueWebhook } from '@platform/webhooks';
import { LendingConfig } from '../config/lending.config';
import { notificationsOf } from './webhook-events';

const SCHEMA = service('lending').schema;

/**
 * Enqueues the webhook deliveries of one contract event, in the transaction that writes it (called by
 * LoanEvents, the one emitter, right after the outbox row): the event itself to the subscriptions that
 * chose its type, with the outbox row's id as `eventId` (the Kafka `event-id` too), and the
 * notifications it gives rise to (webhook-events.ts). A change that rolls back sends nothing.
 *
 * The event types the organization's enabled subscriptions want are read once per transaction: an
 * operation writing six events costs one query when nobody subscribed, not six inserts.
 */
@Injectable()
export class WebhookQueueRepository {
  private readonly wanted = new WeakMap<Tx, Promise<Set<string>>>();

  constructor(private readonly config: LendingConfig) {}

  async enqueue(
    tx: Tx,
    organizationId: OrganizationId,
    type: LendingEventType,
    eventId: string,
    payload: Record<string, unknown>,
  ): Promise<void> {
    // Production without WEBHOOKS_SECRET_KEY: webhooks are off, nothing could be signed.
    if (this.config.webhooksSecretKey() === null) return;
    const wanted = await this.wantedTypes(tx, organizationId);
    if (!wanted.size) return;
    const runner = txManager(tx);
    const items = [
      { eventType: type as string, eventId, payload: payload as unknown },
      ...notificationsOf(type, eventId, payload).map((n) => ({
        eventType: n.type as string,
        eventId: n.eventId,
        payload: n.data as unknown,
      })),
    ];
    for (const item of items)
      if (wanted.has(item.eventType))
        await enqueueWebhook(runner, SCHEMA, { tenantId: organizationId, ...item });
  }

  /**
   * The query of the event types the organization's enabled subscriptions want, as an expression for
   * a statement the caller sends anyway (LoanEvents' events statement), then `know` its answer; null
   * when this transaction knows them already or webhooks are off.
   */
  wantedTypesSql(tx: Tx, organizationId: OrganizationId): ((bind: BindParam) => string) | null {
    if (this.config.webhooksSecretKey() === null || this.wanted.has(tx)) return null;
    return (bind) =>
      `ARRAY(SELECT DISTINCT unnest(event_types) FROM ${SCHEMA}.webhook_subscriptions
              WHERE tenant_id = ${bind(organizationId)} AND enabled)`;
  }

  /** What `wantedTypesSql` answered, for the rest of the transaction. */
  know(tx: Tx, types: readonly string[]): void {
    this.wanted.set(tx, Promise.resolve(new Set(types)));
  }

  private wantedTypes(tx: Tx, organizationId: OrganizationId): Promise<Set<string>> {
    let found = this.wanted.get(tx);
    if (!found) {
      found = txManager(tx)
        .query(
          `SELECT DISTINCT unnest(event_types) AS type FROM ${SCHEMA}.webhook_subscriptions
            WHERE tenant_id = $1 AND enabled`,
          [organizationId],
        )
        .then((rows: { type: string }[]) => new Set(rows.map((r) => r.type)));
      this.wanted.set(tx, found);
    }
    return found;
  }
}
