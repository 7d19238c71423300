import { quoteSchema } from '@platform/outbox';

/** Delivery states. `delivering` is a claimed row under a lease; the worker moves it on. */
export type WebhookDeliveryStatus = 'pending' | 'delivering' | 'succeeded' | 'dead';

/** Response bodies kept per attempt in the delivery log, in bytes. */
export const MAX_LOGGED_RESPONSE_BYTES = 2048;

/**
 * DDL of the three webhook tables, for each service's own migrations (see `webhookTablesMigration`).
 *
 * - `webhook_subscriptions`: secrets only as AES-GCM ciphertexts (`WebhookSecretBox`); the plaintext is
 *   returned once, by create and rotate. An empty `event_types` means every event type.
 * - `webhook_deliveries`: one row per (subscription, event), unique, so enqueueing the same event again
 *   is a no-op. While claimed, `next_attempt_at` equals `lease_until`: the claim is then one range scan
 *   of one partial index, due retries and expired leases of crashed workers alike. `attempts` counts
 *   every attempt ever (the log's attempt number); `attempts_before_redrive` is where the current budget
 *   started, so a redriven delivery gets a fresh budget without renumbering its log.
 * - `webhook_delivery_attempts`: the delivery log, one row per attempt.
 */
export function webhookTablesDdl(schema: string): string[] {
  const s = quoteSchema(schema);
  return [
    `CREATE TABLE ${s}.webhook_subscriptions (
      id uuid PRIMARY KEY,
      tenant_id text NOT NULL,
      url text NOT NULL,
      event_types text[] NOT NULL DEFAULT '{}',
      description text,
      secret_ciphertext text NOT NULL,
      previous_secret_ciphertext text,
      previous_secret_expires_at timestamptz,
      secret_rotated_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    `CREATE INDEX webhook_subscriptions_tenant_idx ON ${s}.webhook_subscriptions (tenant_id, created_at)`,
    `CREATE TABLE ${s}.webhook_deliveries (
      id uuid PRIMARY KEY,
      subscription_id uuid NOT NULL REFERENCES ${s}.webhook_subscriptions (id) ON DELETE CASCADE,
      tenant_id text NOT NULL,
      event_type text NOT NULL,
      event_id text NOT NULL,
      payload jsonb NOT NULL,
      status text NOT NULL DEFAULT 'pending'
        CHECK (status IN ('pending', 'delivering', 'succeeded', 'dead')),
      attempts integer NOT NULL DEFAULT 0,
      attempts_before_redrive integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      lease_owner text,
      lease_until timestamptz,
      last_status integer,
      last_error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      delivered_at timestamptz,
      dead_at timestamptz,
      UNIQUE (subscription_id, event_id)
    )`,
    `CREATE INDEX webhook_deliveries_due_idx ON ${s}.webhook_deliveries (next_attempt_at)
       WHERE status IN ('pending', 'delivering')`,
    `CREATE INDEX webhook_deliveries_tenant_idx ON ${s}.webhook_deliveries (tenant_id, status, created_at)`,
    `CREATE TABLE ${s}.webhook_delivery_attempts (
      delivery_id uuid NOT NULL REFERENCES ${s}.webhook_deliveries (id) ON DELETE CASCADE,
      attempt_no integer NOT NULL,
      tenant_id text NOT NULL,
      attempted_at timestamptz NOT NULL,
      worker text NOT NULL,
      address text,
      http_status integer,
      error text,
      latency_ms integer NOT NULL,
      response_body text,
      response_truncated boolean NOT NULL DEFAULT false,
      outcome text NOT NULL CHECK (outcome IN ('succeeded', 'retry', 'dead')),
      next_attempt_at timestamptz,
      PRIMARY KEY (delivery_id, attempt_no)
    )`,
  ];
}

/**
 * Second step of the webhook tables: a subscription can be paused (`enabled = false`): while paused,
 * events enqueue no delivery for it (deliveries already queued still run their course; an explicitly
 * addressed enqueue, e.g. a test ping, still goes). Each service adds it with a migration of its own
 * (`webhookEnabledMigration`) after `webhookTablesMigration`.
 */
export function webhookEnabledDdl(schema: string): string[] {
  const s = quoteSchema(schema);
  return [`ALTER TABLE ${s}.webhook_subscriptions ADD COLUMN enabled boolean NOT NULL DEFAULT true`];
}

export function dropWebhookEnabledDdl(schema: string): string[] {
  return [`ALTER TABLE ${quoteSchema(schema)}.webhook_subscriptions DROP COLUMN enabled`];
}

export function dropWebhookTablesDdl(schema: string): string[] {
  const s = quoteSchema(schema);
  return [
    `DROP TABLE ${s}.webhook_delivery_attempts`,
    `DROP TABLE ${s}.webhook_deliveries`,
    `DROP TABLE ${s}.webhook_subscriptions`,
  ];
}

/**
 * The rows of a query's answer: pg answers `{ rows }`; a TypeORM EntityManager answers the rows
 * themselves, or `[rows, affected]` for UPDATE and DELETE (rows are objects, never arrays, so the pair
 * cannot be mistaken for two rows).
 */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) {
    if (result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number')
      return result[0] as T[];
    return result as T[];
  }
  return ((result as { rows?: T[] } | undefined)?.rows ?? []) as T[];
}
