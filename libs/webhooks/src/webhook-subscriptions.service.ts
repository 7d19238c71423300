import { randomUUID } from 'node:crypto';
import type { Pool } from 'pg';
import { quoteSchema, type Queryable } from '@platform/outbox';
import { withinCountLimit } from '@platform/persistence';
import { generateWebhookSecret, type WebhookSecretBox } from './webhook-secret-box';
import { rowsOf } from './webhook-tables';
import { assertPublicUrl, type HostResolver, type PublicTargetPolicy } from '@platform/network';

/** A subscription as callers see it: never a secret. */
export interface WebhookSubscription {
  id: string;
  tenantId: string;
  url: string;
  /** Empty: every event type. */
  eventTypes: string[];
  description: string | null;
  /** False while paused: events enqueue no delivery for it. */
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
  secretRotatedAt: Date | null;
  /** While set and in the future, deliveries carry a second signature made with the previous secret. */
  previousSecretValidUntil: Date | null;
}

/** The only answers that carry the plaintext secret: show it once, it cannot be read again. */
export interface WebhookSubscriptionWithSecret {
  subscription: WebhookSubscription;
  secret: string;
}

export interface CreateWebhookSubscription {
  url: string;
  eventTypes?: string[];
  description?: string | null;
}

/** At most `max` subscriptions per tenant; `full` is the service's coded error once it has them. */
export interface WebhookSubscriptionBound {
  max: number;
  full: (max: number) => Error;
}

/** A partial change: absent fields stay as they are. */
export interface UpdateWebhookSubscription {
  url?: string;
  eventTypes?: string[];
  description?: string | null;
  enabled?: boolean;
}

export interface WebhookSubscriptionsOptions {
  secretBox: WebhookSecretBox;
  policy?: PublicTargetPolicy;
  resolve?: HostResolver;
  /** How long the previous secret keeps signing after a rotation: 24 h by default. */
  rotationOverlapSeconds?: number;
}

interface SubscriptionRow {
  id: string;
  tenant_id: string;
  url: string;
  event_types: string[];
  description: string | null;
  enabled: boolean;
  created_at: Date;
  updated_at: Date;
  secret_rotated_at: Date | null;
  previous_secret_expires_at: Date | null;
}

const COLUMNS = `id, tenant_id, url, event_types, description, enabled, created_at, updated_at, secret_rotated_at,
  CASE WHEN previous_secret_expires_at > now() THEN previous_secret_expires_at END AS previous_secret_expires_at`;

export const EVENT_TYPE_PATTERN = /^[A-Za-z][A-Za-z0-9_.:-]{0,99}$/;
const MAX_EVENT_TYPES = 100;
const MAX_DESCRIPTION = 500;

const toSubscription = (r: SubscriptionRow): WebhookSubscription => ({
  id: r.id,
  tenantId: r.tenant_id,
  url: r.url,
  eventTypes: r.event_types,
  description: r.description,
  enabled: r.enabled,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  secretRotatedAt: r.secret_rotated_at,
  previousSecretValidUntil: r.previous_secret_expires_at,
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Webhook endpoints of a service's tenants. Every method takes the tenant id: a subscription of
 * another tenant is "not found" (`undefined` / `false`), which the service maps to its 404. Input
 * problems throw `PublicTargetError` (the URL) or `RangeError` (event types, description). Queries run
 * on the pool given, or on a transaction's runner (`withRunner`), e.g. a tenant transaction under
 * row-level security.
 */
export class WebhookSubscriptions {
  private readonly table: string;

  constructor(
    private readonly db: Pool | Queryable,
    private readonly schema: string,
    private readonly opts: WebhookSubscriptionsOptions,
  ) {
    this.table = `${quoteSchema(schema)}.webhook_subscriptions`;
  }

  /** The same subscriptions, through `runner` (a TypeORM EntityManager or a pg client in BEGIN). */
  withRunner(runner: Queryable): WebhookSubscriptions {
    return new WebhookSubscriptions(runner, this.schema, this.opts);
  }

  private async rows(sql: string, params: unknown[]): Promise<SubscriptionRow[]> {
    return rowsOf<SubscriptionRow>(await this.db.query(sql, params));
  }

  /**
   * With a `bound`, the tenant's count and the insert run under the platform's count lock
   * (`withinCountLimit`): concurrent creates cannot pass the bound together. The runner must then be a
   * transaction's (`withRunner`). The URL is checked first, so no lock is held while its name resolves.
   */
  async create(
    tenantId: string,
    input: CreateWebhookSubscription,
    bound?: WebhookSubscriptionBound,
  ): Promise<WebhookSubscriptionWithSecret> {
    const url = await assertPublicUrl(input.url, { policy: this.opts.policy, resolve: this.opts.resolve });
    const eventTypes = checkEventTypes(input.eventTypes ?? []);
    const description = checkDescription(input.description ?? null);
    const insert = async () => {
      const id = randomUUID();
      const secret = generateWebhookSecret();
      const rows = await this.rows(
        `INSERT INTO ${this.table} (id, tenant_id, url, event_types, description, secret_ciphertext)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
        [id, tenantId, url, eventTypes, description, this.opts.secretBox.seal(secret, id)],
      );
      return { subscription: toSubscription(rows[0]), secret };
    };
    if (!bound) return insert();
    return withinCountLimit(
      this.db,
      {
        kind: 'webhook_subscriptions',
        ownerId: tenantId,
        max: bound.max,
        count: () => this.count(tenantId),
        full: bound.full,
      },
      insert,
    );
  }

  /** How many subscriptions the tenant has, paused ones included. */
  async count(tenantId: string): Promise<number> {
    const [row] = rowsOf<{ n: number }>(
      await this.db.query(`SELECT count(*)::int AS n FROM ${this.table} WHERE tenant_id = $1`, [tenantId]),
    );
    return row.n;
  }

  async list(tenantId: string): Promise<WebhookSubscription[]> {
    const rows = await this.rows(
      `SELECT ${COLUMNS} FROM ${this.table} WHERE tenant_id = $1 ORDER BY created_at, id`,
      [tenantId],
    );
    return rows.map(toSubscription);
  }

  async get(tenantId: string, id: string): Promise<WebhookSubscription | undefined> {
    if (!UUID.test(id)) return undefined;
    const rows = await this.rows(`SELECT ${COLUMNS} FROM ${this.table} WHERE tenant_id = $1 AND id = $2`, [
      tenantId,
      id,
    ]);
    return rows[0] ? toSubscription(rows[0]) : undefined;
  }

  /**
   * Changes the URL (checked again, as at creation), the event types, the description or whether the
   * subscription is enabled. The secret does not change. Undefined when the tenant has no such one.
   */
  async update(
    tenantId: string,
    id: string,
    input: UpdateWebhookSubscription,
  ): Promise<WebhookSubscription | undefined> {
    if (!UUID.test(id)) return undefined;
    const url =
      input.url === undefined
        ? null
        : await assertPublicUrl(input.url, { policy: this.opts.policy, resolve: this.opts.resolve });
    const eventTypes = input.eventTypes === undefined ? null : checkEventTypes(input.eventTypes);
    const description = input.description === undefined ? undefined : checkDescription(input.description);
    if (input.enabled !== undefined && typeof input.enabled !== 'boolean')
      throw new RangeError('enabled must be true or false');
    const rows = await this.rows(
      `UPDATE ${this.table}
          SET url = coalesce($3, url), event_types = coalesce($4::text[], event_types),
              description = CASE WHEN $5 THEN $6 ELSE description END,
              enabled = coalesce($7, enabled), updated_at = now()
        WHERE tenant_id = $1 AND id = $2
        RETURNING ${COLUMNS}`,
      [tenantId, id, url, eventTypes, description !== undefined, description ?? null, input.enabled ?? null],
    );
    return rows[0] ? toSubscription(rows[0]) : undefined;
  }

  /**
   * A new current secret; the old one keeps signing (a second signature) for `overlapSeconds` so the
   * receiver can switch without losing deliveries. Only two secrets exist at a time: rotating again
   * during an overlap drops the oldest. `overlapSeconds: 0` retires the old secret at once.
   */
  async rotateSecret(
    tenantId: string,
    id: string,
    options: { overlapSeconds?: number } = {},
  ): Promise<WebhookSubscriptionWithSecret | undefined> {
    if (!UUID.test(id)) return undefined;
    const overlap = options.overlapSeconds ?? this.opts.rotationOverlapSeconds ?? 86_400;
    if (!Number.isFinite(overlap) || overlap < 0 || overlap > 30 * 86_400) {
      throw new RangeError('overlapSeconds must be between 0 and 30 days');
    }
    const secret = generateWebhookSecret();
    const rows = await this.rows(
      `UPDATE ${this.table}
          SET previous_secret_ciphertext = CASE WHEN $4::double precision > 0 THEN secret_ciphertext END,
              previous_secret_expires_at = CASE WHEN $4::double precision > 0
                                                THEN now() + make_interval(secs => $4::double precision) END,
              secret_ciphertext = $3, secret_rotated_at = now(), updated_at = now()
        WHERE tenant_id = $1 AND id = $2
        RETURNING ${COLUMNS}`,
      [tenantId, id, this.opts.secretBox.seal(secret, id), overlap],
    );
    return rows[0] ? { subscription: toSubscription(rows[0]), secret } : undefined;
  }

  /** Deletes the subscription with its deliveries and their log (cascade). */
  async delete(tenantId: string, id: string): Promise<boolean> {
    if (!UUID.test(id)) return false;
    const gone = rowsOf(
      await this.db.query(`DELETE FROM ${this.table} WHERE tenant_id = $1 AND id = $2 RETURNING id`, [
        tenantId,
        id,
      ]),
    );
    return gone.length > 0;
  }
}

function checkEventTypes(types: string[]): string[] {
  if (!Array.isArray(types) || types.length > MAX_EVENT_TYPES) {
    throw new RangeError(`eventTypes must be a list of at most ${MAX_EVENT_TYPES} names`);
  }
  for (const t of types) {
    if (typeof t !== 'string' || !EVENT_TYPE_PATTERN.test(t))
      throw new RangeError(`invalid event type: ${String(t)}`);
  }
  return [...new Set(types)].sort();
}

function checkDescription(d: string | null): string | null {
  if (d === null) return null;
  if (typeof d !== 'string' || [...d].length > MAX_DESCRIPTION) {
    throw new RangeError(`description must be text of at most ${MAX_DESCRIPTION} characters`);
  }
  return d;
}
