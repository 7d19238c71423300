import { quoteSchema, type Queryable } from '@platform/outbox';
import { EVENT_TYPE_PATTERN } from './webhook-subscriptions.service';
import { rowsOf } from './webhook-tables';

export interface EnqueueWebhook {
  tenantId: string;
  eventType: string;
  /** The business event's id; with the subscription it identifies a delivery (enqueueing twice is a no-op). */
  eventId: string;
  /** JSON object sent as the body's `data`. */
  payload: unknown;
  /**
   * These subscriptions of the tenant (others are ignored, as are ids of another tenant), paused ones
   * too (a test ping before enabling one again). Omitted: every enabled subscription of the tenant
   * whose event types include `eventType` (or that has none listed).
   */
  subscriptionIds?: string[];
}

export interface EnqueuedDelivery {
  deliveryId: string;
  subscriptionId: string;
}

/** Largest payload accepted (its JSON text), so one event cannot clog the workers. */
export const MAX_WEBHOOK_PAYLOAD_BYTES = 256 * 1024;

/**
 * Writes deliveries in the caller's transaction (a TypeORM EntityManager or a pg client in BEGIN), so
 * the business change and its webhooks commit or roll back together, as with the outbox. Returns the
 * deliveries created now (not those that already existed for this event).
 */
export async function enqueueWebhook(
  runner: Queryable,
  schema: string,
  input: EnqueueWebhook,
): Promise<EnqueuedDelivery[]> {
  const s = quoteSchema(schema);
  if (!EVENT_TYPE_PATTERN.test(input.eventType))
    throw new RangeError(`invalid event type: ${input.eventType}`);
  if (typeof input.eventId !== 'string' || input.eventId.length === 0 || input.eventId.length > 200) {
    throw new RangeError('eventId must be 1-200 characters');
  }
  const json = JSON.stringify(input.payload);
  if (json === undefined || Buffer.byteLength(json) > MAX_WEBHOOK_PAYLOAD_BYTES) {
    throw new RangeError(`payload must be JSON of at most ${MAX_WEBHOOK_PAYLOAD_BYTES} bytes`);
  }
  const chosen = input.subscriptionIds !== undefined;
  const ids = (input.subscriptionIds ?? []).filter((id) => /^[0-9a-f-]{36}$/i.test(id));
  if (chosen && !ids.length) return [];
  const result = await runner.query(
    `INSERT INTO ${s}.webhook_deliveries (id, subscription_id, tenant_id, event_type, event_id, payload)
     SELECT gen_random_uuid(), sub.id, sub.tenant_id, $2, $3, $4::jsonb
       FROM ${s}.webhook_subscriptions sub
      WHERE sub.tenant_id = $1
        AND ${chosen ? 'sub.id = ANY ($5::uuid[])' : `sub.enabled AND (sub.event_types = '{}' OR $2 = ANY (sub.event_types))`}
     ON CONFLICT (subscription_id, event_id) DO NOTHING
     RETURNING id, subscription_id`,
    [input.tenantId, input.eventType, input.eventId, json, ...(chosen ? [ids] : [])],
  );
  return rowsOf<{ id: string; subscription_id: string }>(result).map((r) => ({
    deliveryId: r.id,
    subscriptionId: r.subscription_id,
  }));
}
