import type { Pool } from 'pg';
import { quoteSchema, type Queryable } from '@platform/outbox';
import { rowsOf, type WebhookDeliveryStatus } from './webhook-tables';

export interface WebhookDelivery {
  id: string;
  subscriptionId: string;
  eventType: string;
  eventId: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
  deadAt: Date | null;
}

export interface WebhookAttempt {
  attemptNo: number;
  attemptedAt: Date;
  httpStatus: number | null;
  error: string | null;
  latencyMs: number;
  responseBody: string | null;
  responseTruncated: boolean;
  outcome: 'succeeded' | 'retry' | 'dead';
  nextAttemptAt: Date | null;
}

/** Which dead deliveries of a tenant to redrive; an empty filter means all of them. */
export interface RedriveFilter {
  deliveryIds?: string[];
  subscriptionId?: string;
  eventType?: string;
  /** Only deliveries that died at or after this instant. */
  deadSince?: Date;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Puts dead deliveries of a tenant back to pending, due now, with a fresh attempt budget (their log
 * keeps its numbering). Same delivery id and body: a receiver that processed an earlier attempt after
 * all dedupes it. Accepts a runner so an admin action can be audited in the same transaction.
 * Returns the ids redriven.
 */
export async function redriveWebhooks(
  runner: Queryable,
  schema: string,
  tenantId: string,
  target: string | string[] | RedriveFilter,
): Promise<string[]> {
  const filter: RedriveFilter =
    typeof target === 'string'
      ? { deliveryIds: [target] }
      : Array.isArray(target)
        ? { deliveryIds: target }
        : target;
  const where = ['tenant_id = $1', `status = 'dead'`];
  const params: unknown[] = [tenantId];
  if (filter.deliveryIds !== undefined) {
    const ids = filter.deliveryIds.filter((id) => UUID.test(id));
    if (!ids.length) return [];
    params.push(ids);
    where.push(`id = ANY ($${params.length}::uuid[])`);
  }
  if (filter.subscriptionId !== undefined) {
    if (!UUID.test(filter.subscriptionId)) return [];
    params.push(filter.subscriptionId);
    where.push(`subscription_id = $${params.length}`);
  }
  if (filter.eventType !== undefined) {
    params.push(filter.eventType);
    where.push(`event_type = $${params.length}`);
  }
  if (filter.deadSince !== undefined) {
    params.push(filter.deadSince);
    where.push(`dead_at >= $${params.length}`);
  }
  const result = await runner.query(
    `UPDATE ${quoteSchema(schema)}.webhook_deliveries
        SET status = 'pending', next_attempt_at = now(), attempts_before_redrive = attempts,
            dead_at = NULL, lease_owner = NULL, lease_until = NULL
      WHERE ${where.join(' AND ')}
      RETURNING id`,
    params,
  );
  return rowsOf<{ id: string }>(result).map((r) => r.id);
}

interface DeliveryRow {
  id: string;
  subscription_id: string;
  event_type: string;
  event_id: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  next_attempt_at: Date;
  last_status: number | null;
  last_error: string | null;
  created_at: Date;
  delivered_at: Date | null;
  dead_at: Date | null;
}

interface AttemptRow {
  attempt_no: number;
  attempted_at: Date;
  http_status: number | null;
  error: string | null;
  latency_ms: number;
  response_body: string | null;
  response_truncated: boolean;
  outcome: WebhookAttempt['outcome'];
  next_attempt_at: Date | null;
}

const toAttempt = (r: AttemptRow): WebhookAttempt => ({
  attemptNo: r.attempt_no,
  attemptedAt: r.attempted_at,
  httpStatus: r.http_status,
  error: r.error,
  latencyMs: r.latency_ms,
  responseBody: r.response_body,
  responseTruncated: r.response_truncated,
  outcome: r.outcome,
  nextAttemptAt: r.next_attempt_at,
});

const DELIVERY_COLUMNS = `id, subscription_id, event_type, event_id, status, attempts, next_attempt_at,
  last_status, last_error, created_at, delivered_at, dead_at`;

const toDelivery = (r: DeliveryRow): WebhookDelivery => ({
  id: r.id,
  subscriptionId: r.subscription_id,
  eventType: r.event_type,
  eventId: r.event_id,
  status: r.status,
  attempts: r.attempts,
  nextAttemptAt: r.status === 'pending' || r.status === 'delivering' ? r.next_attempt_at : null,
  lastStatus: r.last_status,
  lastError: r.last_error,
  createdAt: r.created_at,
  deliveredAt: r.delivered_at,
  deadAt: r.dead_at,
});

/**
 * The delivery log of a service's tenants, for their API (list, attempts) and for redrive. Queries run
 * on the pool given, or on a transaction's runner (`withRunner`), e.g. a tenant transaction under
 * row-level security.
 */
export class WebhookDeliveries {
  private readonly s: string;

  constructor(
    private readonly db: Pool | Queryable,
    private readonly schema: string,
  ) {
    this.s = quoteSchema(schema);
  }

  /** The same log, read and redriven through `runner` (a TypeORM EntityManager or a pg client in BEGIN). */
  withRunner(runner: Queryable): WebhookDeliveries {
    return new WebhookDeliveries(runner, this.schema);
  }

  private async rows<T>(sql: string, params: unknown[]): Promise<T[]> {
    return rowsOf<T>(await this.db.query(sql, params));
  }

  /** Newest first. */
  async list(
    tenantId: string,
    filter: { subscriptionId?: string; status?: WebhookDeliveryStatus; limit?: number; offset?: number } = {},
  ): Promise<{ items: WebhookDelivery[]; total: number }> {
    if (filter.subscriptionId !== undefined && !UUID.test(filter.subscriptionId))
      return { items: [], total: 0 };
    const limit = Math.min(Math.max(1, filter.limit ?? 50), 500);
    const offset = Math.max(0, filter.offset ?? 0);
    const rows = await this.rows<DeliveryRow & { total: string }>(
      `SELECT ${DELIVERY_COLUMNS}, count(*) OVER () AS total
         FROM ${this.s}.webhook_deliveries
        WHERE tenant_id = $1 AND ($2::uuid IS NULL OR subscription_id = $2) AND ($3::text IS NULL OR status = $3)
        ORDER BY created_at DESC, id LIMIT $4 OFFSET $5`,
      [tenantId, filter.subscriptionId ?? null, filter.status ?? null, limit, offset],
    );
    return { total: rows.length ? Number(rows[0].total) : 0, items: rows.map(toDelivery) };
  }

  /** One delivery of the tenant; undefined when it has no such one. */
  async get(tenantId: string, deliveryId: string): Promise<WebhookDelivery | undefined> {
    if (!UUID.test(deliveryId)) return undefined;
    const rows = await this.rows<DeliveryRow>(
      `SELECT ${DELIVERY_COLUMNS} FROM ${this.s}.webhook_deliveries WHERE tenant_id = $1 AND id = $2`,
      [tenantId, deliveryId],
    );
    return rows[0] ? toDelivery(rows[0]) : undefined;
  }

  /** The attempts of one delivery, in order; undefined when the tenant has no such delivery. */
  async attempts(tenantId: string, deliveryId: string): Promise<WebhookAttempt[] | undefined> {
    if (!UUID.test(deliveryId)) return undefined;
    const owner = await this.rows(
      `SELECT 1 FROM ${this.s}.webhook_deliveries WHERE tenant_id = $1 AND id = $2`,
      [tenantId, deliveryId],
    );
    if (!owner.length) return undefined;
    const rows = await this.rows<AttemptRow>(
      `SELECT attempt_no, attempted_at, http_status, error, latency_ms, response_body, response_truncated,
              outcome, next_attempt_at
         FROM ${this.s}.webhook_delivery_attempts WHERE tenant_id = $1 AND delivery_id = $2 ORDER BY attempt_no`,
      [tenantId, deliveryId],
    );
    return rows.map(toAttempt);
  }

  /**
   * The attempts of several deliveries of the tenant at once (a page of the log), in order, by delivery
   * id; another tenant's ids get no entry.
   */
  async attemptsOf(tenantId: string, deliveryIds: readonly string[]): Promise<Map<string, WebhookAttempt[]>> {
    const ids = deliveryIds.filter((id) => UUID.test(id));
    const found = new Map<string, WebhookAttempt[]>();
    if (!ids.length) return found;
    const rows = await this.rows<AttemptRow & { delivery_id: string }>(
      `SELECT delivery_id, attempt_no, attempted_at, http_status, error, latency_ms, response_body,
              response_truncated, outcome, next_attempt_at
         FROM ${this.s}.webhook_delivery_attempts
        WHERE tenant_id = $1 AND delivery_id = ANY ($2::uuid[]) ORDER BY delivery_id, attempt_no`,
      [tenantId, ids],
    );
    for (const r of rows) found.set(r.delivery_id, [...(found.get(r.delivery_id) ?? []), toAttempt(r)]);
    return found;
  }

  redrive(tenantId: string, target: string | string[] | RedriveFilter): Promise<string[]> {
    return redriveWebhooks(this.db, this.schema, tenantId, target);
  }
}
