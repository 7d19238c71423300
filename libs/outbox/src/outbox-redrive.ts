import { quoteSchema, type Queryable } from './sql';

/** Which dead outbox rows to publish again; at least one condition, so nothing is redriven by accident. */
export interface OutboxRedriveFilter {
  /** These events (the `event-id`s); ids that are not dead are left alone. */
  eventIds?: readonly string[];
  /** Only events of this topic. */
  topic?: string;
  /** Only events of this tenant (organization). */
  tenantId?: string;
  /** Only events dead-lettered at or after this instant. */
  deadSince?: Date;
  /** Every dead event of the schema (with the other conditions, if any). */
  all?: boolean;
}

export interface RedrivenEvent {
  id: string;
  topic: string;
  eventType: string;
  aggregateId: string;
  deadAt: Date;
  lastError: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Puts dead-lettered outbox rows back to pending, due now, with a fresh failure budget: the relay
 * publishes them again with the same `event-id` (consumers that did see them dedupe on it). Their copy
 * on the dead-letter topic stays (for the record). A redriven event arrives after later events of its
 * aggregate, which were published once it was dead. Returns what was redriven, in outbox order.
 */
export async function redriveDeadEvents(
  runner: Queryable,
  schema: string,
  filter: OutboxRedriveFilter,
): Promise<RedrivenEvent[]> {
  const where = ['dead_at IS NOT NULL', 'sent_at IS NULL'];
  const params: unknown[] = [];
  if (filter.eventIds !== undefined) {
    const ids = filter.eventIds.filter((id) => UUID.test(id));
    if (!ids.length) return [];
    params.push(ids);
    where.push(`id = ANY ($${params.length}::uuid[])`);
  }
  if (filter.topic !== undefined) {
    params.push(filter.topic);
    where.push(`topic = $${params.length}`);
  }
  if (filter.tenantId !== undefined) {
    params.push(filter.tenantId);
    where.push(`tenant_id = $${params.length}`);
  }
  if (filter.deadSince !== undefined) {
    params.push(filter.deadSince);
    where.push(`dead_at >= $${params.length}`);
  }
  if (params.length === 0 && filter.all !== true)
    throw new RangeError('say which dead events to redrive (event ids, topic, tenant, since), or all');
  const result = await runner.query(
    `WITH redriven AS (
       UPDATE ${quoteSchema(schema)}.outbox o
          SET dead_at = NULL, failures = 0, available_at = now(), lease_owner = NULL, lease_until = NULL
         FROM (SELECT seq, dead_at AS was_dead_at, last_error AS was_error FROM ${quoteSchema(schema)}.outbox
                WHERE ${where.join(' AND ')} FOR UPDATE) d
        WHERE o.seq = d.seq
        RETURNING o.seq, o.id, o.topic, o.event_type, o.aggregate_id, d.was_dead_at, d.was_error)
     SELECT id, topic, event_type, aggregate_id, was_dead_at, was_error FROM redriven ORDER BY seq`,
    params,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as {
    id: string;
    topic: string;
    event_type: string;
    aggregate_id: string;
    was_dead_at: Date;
    was_error: string | null;
  }[];
  return rows.map((r) => ({
    id: r.id,
    topic: r.topic,
    eventType: r.event_type,
    aggregateId: r.aggregate_id,
    deadAt: r.was_dead_at,
    lastError: r.was_error,
  }));
}
