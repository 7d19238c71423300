import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Pool } from 'pg';
import { quoteSchema } from '@platform/outbox';
import { Periodic } from '@platform/scheduling';
import { backoffDelayMs, DEFAULT_RETRY_SCHEDULE, type RetrySchedule } from '@platform/network';
import { postPinned, WebhookTimeoutError, type PostResult } from './webhook-http';
import type { WebhookSecretBox } from './webhook-secret-box';
import {
  initWebhookMetrics,
  webhookAttemptDuration,
  webhookDeliveries,
  webhookLostLeases,
  type WebhookOutcome,
} from './webhook-metrics';
import { signWebhook } from './webhook-signature';
import { MAX_LOGGED_RESPONSE_BYTES } from './webhook-tables';
import {
  resolvePublicTarget,
  PublicTargetError,
  type HostResolver,
  type PublicTarget,
  type PublicTargetPolicy,
} from '@platform/network';

export interface WebhookWorkerOptions extends Partial<RetrySchedule> {
  /** Unique per replica (pod name + pid); each claim adds a random suffix. */
  owner: string;
  secretBox: WebhookSecretBox;
  policy?: PublicTargetPolicy;
  resolve?: HostResolver;
  /** Deliveries claimed and sent in parallel per round: 20. */
  batchSize?: number;
  /** Whole attempt: DNS, connect, TLS, request and response: 10 s. */
  timeoutMs?: number;
  /** Lease on a claimed delivery; must exceed the timeout with room: 60 s. */
  leaseMs?: number;
  /** Pause of `start()` when a round found less than a full batch: 1 s. */
  pollIntervalMs?: number;
  /** Response bytes kept in the delivery log: 2048. */
  maxResponseBytes?: number;
  log?: (level: 'info' | 'warn' | 'error', msg: string) => void;
  /** Source of the backoff's jitter, uniform in [0, 1): `Math.random`; tests pin it to see the windows. */
  random?: () => number;
}

export interface WorkerRoundResult {
  claimed: number;
  succeeded: number;
  retrying: number;
  dead: number;
  /** Attempts whose lease had passed to another worker before they were recorded. */
  lostLeases: number;
}

interface ClaimedRow {
  id: string;
  subscription_id: string;
  tenant_id: string;
  event_type: string;
  event_id: string;
  payload: unknown;
  attempts: number;
  attempts_before_redrive: number;
  created_at: Date;
  url: string;
  secret_ciphertext: string;
  previous_secret_ciphertext: string | null;
}

interface AttemptResult {
  outcome: WebhookOutcome;
  httpStatus: number | null;
  error: string | null;
  responseBody: string | null;
  truncated: boolean;
  address: string | null;
  latencyMs: number;
  delayMs: number;
}

/**
 * The signed body: the business payload under `data`, with the ids a receiver dedupes on. Built from
 * the stored row, so every attempt of a delivery sends the same bytes.
 */
export function webhookBody(d: {
  deliveryId: string;
  eventId: string;
  eventType: string;
  createdAt: Date;
  payload: unknown;
}): string {
  return JSON.stringify({
    deliveryId: d.deliveryId,
    eventId: d.eventId,
    event: d.eventType,
    createdAt: d.createdAt.toISOString(),
    data: d.payload,
  });
}

/**
 * Sends due webhook deliveries of one schema. Stateless: any number of replicas run it; a claim takes
 * due rows with `FOR UPDATE SKIP LOCKED` and leases them, so replicas never share a row and a crashed
 * replica's rows come back when the lease ends. At least once: a worker that dies after the receiver
 * answered but before recording it leaves the delivery to be sent again, with the same delivery id.
 * No per-subscription order (decision 0018): deliveries of one endpoint go out in parallel.
 */
export class WebhookDeliveryWorker {
  private readonly s: string;
  private readonly schedule: RetrySchedule;
  private readonly batchSize: number;
  private readonly timeoutMs: number;
  private readonly leaseMs: number;
  private readonly pollIntervalMs: number;
  private readonly maxResponseBytes: number;
  private readonly rounds: Periodic<WorkerRoundResult>;
  readonly totals: WorkerRoundResult = { claimed: 0, succeeded: 0, retrying: 0, dead: 0, lostLeases: 0 };

  constructor(
    private readonly pool: Pool,
    readonly schema: string,
    private readonly opts: WebhookWorkerOptions,
  ) {
    this.s = quoteSchema(schema);
    this.schedule = {
      backoffBaseMs: opts.backoffBaseMs ?? DEFAULT_RETRY_SCHEDULE.backoffBaseMs,
      backoffMaxMs: opts.backoffMaxMs ?? DEFAULT_RETRY_SCHEDULE.backoffMaxMs,
      maxAttempts: opts.maxAttempts ?? DEFAULT_RETRY_SCHEDULE.maxAttempts,
      jitter: opts.jitter ?? 'full',
    };
    this.batchSize = opts.batchSize ?? 20;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.leaseMs = opts.leaseMs ?? 60_000;
    this.pollIntervalMs = opts.pollIntervalMs ?? 1_000;
    this.maxResponseBytes = opts.maxResponseBytes ?? MAX_LOGGED_RESPONSE_BYTES;
    // Recording happens after the timeout: the lease must cover it, or another replica sends again.
    if (this.leaseMs < this.timeoutMs + 5_000)
      throw new Error('leaseMs must exceed timeoutMs by at least 5 s');
    if (this.schedule.maxAttempts < 1 || this.batchSize < 1)
      throw new Error('maxAttempts and batchSize must be >= 1');
    initWebhookMetrics(schema);
    // Periodic, cluster scope: the claims are SKIP LOCKED leases, so replicas share the deliveries.
    this.rounds = new Periodic<WorkerRoundResult>({
      name: `WebhookDelivery:${schema}`,
      scope: 'cluster',
      everyMs: this.pollIntervalMs,
      firstRound: 0,
      work: () => this.runOnce(),
      pauseAfter: (r) => (r.claimed >= this.batchSize ? 0 : this.pollIntervalMs),
      onError: (err) =>
        this.opts.log?.('error', `[${this.schema}] webhook round failed: ${(err as Error).message}`),
    });
  }

  /** Runs rounds until `stop()`: back to back while rounds come back full, else every `pollIntervalMs`. */
  start(): void {
    this.rounds.start();
  }

  /** Stops after the round in flight has recorded every attempt. */
  stop(): Promise<void> {
    return this.rounds.stop();
  }

  /**
   * One round: claim up to `batchSize` due deliveries, send them in parallel, record each attempt.
   * Calls do not wait for each other (tests race rounds of one worker); the schedule runs one at a time.
   */
  async runOnce(): Promise<WorkerRoundResult> {
    const token = `${this.opts.owner}:${randomBytes(6).toString('hex')}`;
    const claimed = await this.claim(token);
    const result: WorkerRoundResult = {
      claimed: claimed.length,
      succeeded: 0,
      retrying: 0,
      dead: 0,
      lostLeases: 0,
    };
    await Promise.all(
      claimed.map(async (row) => {
        const attempt = await this.attempt(row);
        const held = await this.record(row, attempt, token);
        webhookDeliveries.inc({ schema: this.schema, outcome: attempt.outcome });
        webhookAttemptDuration.observe(
          { schema: this.schema, outcome: attempt.outcome },
          attempt.latencyMs / 1000,
        );
        if (!held) {
          result.lostLeases++;
          webhookLostLeases.inc({ schema: this.schema });
        }
        if (attempt.outcome === 'succeeded') result.succeeded++;
        else if (attempt.outcome === 'retry') result.retrying++;
        else result.dead++;
      }),
    );
    for (const k of Object.keys(result) as (keyof WorkerRoundResult)[]) this.totals[k] += result[k];
    return result;
  }

  /**
   * One statement: lock due rows nobody else holds (SKIP LOCKED), lease them, and read their endpoint.
   * Due means pending and past its retry time, or leased by a worker whose lease ran out.
   */
  private async claim(token: string): Promise<ClaimedRow[]> {
    const { rows } = await this.pool.query<ClaimedRow>(
      `WITH picked AS (
         SELECT id FROM ${this.s}.webhook_deliveries
          WHERE status IN ('pending', 'delivering') AND next_attempt_at <= now()
          ORDER BY next_attempt_at LIMIT $1
          FOR UPDATE SKIP LOCKED),
       claimed AS (
         UPDATE ${this.s}.webhook_deliveries d
            SET status = 'delivering', attempts = d.attempts + 1, lease_owner = $2,
                lease_until = now() + make_interval(secs => $3::double precision / 1000),
                next_attempt_at = now() + make_interval(secs => $3::double precision / 1000)
           FROM picked WHERE d.id = picked.id
         RETURNING d.id, d.subscription_id, d.tenant_id, d.event_type, d.event_id, d.payload, d.attempts,
                   d.attempts_before_redrive, d.created_at)
       SELECT c.*, s.url, s.secret_ciphertext,
              CASE WHEN s.previous_secret_expires_at > now() THEN s.previous_secret_ciphertext END
                AS previous_secret_ciphertext
         FROM claimed c JOIN ${this.s}.webhook_subscriptions s ON s.id = c.subscription_id`,
      [this.batchSize, token, this.leaseMs],
    );
    return rows;
  }

  /** Resolves, checks and posts; never throws: failures become the attempt's result. */
  private async attempt(row: ClaimedRow): Promise<AttemptResult> {
    const started = performance.now();
    const deadline = started + this.timeoutMs;
    let target: PublicTarget | undefined;
    let res: PostResult | undefined;
    let error: string | null = null;
    try {
      target = await withDeadline(
        resolvePublicTarget(row.url, { policy: this.opts.policy, resolve: this.opts.resolve }),
        this.timeoutMs,
      );
      const body = webhookBody({
        deliveryId: row.id,
        eventId: row.event_id,
        eventType: row.event_type,
        createdAt: row.created_at,
        payload: row.payload,
      });
      const headers = signWebhook({
        secrets: this.secrets(row),
        eventType: row.event_type,
        deliveryId: row.id,
        timestamp: Math.floor(Date.now() / 1000),
        rawBody: body,
      });
      res = await postPinned(target, headers, body, {
        timeoutMs: Math.max(1, deadline - performance.now()),
        maxResponseBytes: this.maxResponseBytes,
      });
      if (res.status >= 300 && res.status < 400) {
        error = `redirect not followed${res.location ? ` (Location: ${res.location.slice(0, 500)})` : ''}`;
      } else if (res.status < 200 || res.status >= 300) {
        error = `HTTP ${res.status}`;
      }
    } catch (err) {
      error = describe(err);
    }
    const ok = res !== undefined && error === null;
    const failed = row.attempts - row.attempts_before_redrive;
    const outcome = ok ? 'succeeded' : failed >= this.schedule.maxAttempts ? 'dead' : 'retry';
    return {
      outcome,
      httpStatus: res?.status ?? null,
      error,
      responseBody: res ? res.body : null,
      truncated: res?.truncated ?? false,
      address: target?.address ?? null,
      latencyMs: Math.round(performance.now() - started),
      delayMs: outcome === 'retry' ? backoffDelayMs(failed, this.schedule, this.opts.random) : 0,
    };
  }

  private secrets(row: ClaimedRow): string[] {
    const box = this.opts.secretBox;
    const list = [box.open(row.secret_ciphertext, row.subscription_id)];
    if (row.previous_secret_ciphertext)
      list.push(box.open(row.previous_secret_ciphertext, row.subscription_id));
    return list;
  }

  /**
   * Logs the attempt and moves the delivery on, in one statement. The delivery is updated only while
   * this claim still holds its lease; the log row is written either way (the request did happen).
   * Returns whether the lease was still held.
   */
  private async record(row: ClaimedRow, a: AttemptResult, token: string): Promise<boolean> {
    const status = a.outcome === 'retry' ? 'pending' : a.outcome;
    const res = await this.pool.query(
      `WITH t AS (SELECT now() + make_interval(secs => $4::double precision / 1000) AS next_at),
       logged AS (
         INSERT INTO ${this.s}.webhook_delivery_attempts
           (delivery_id, attempt_no, tenant_id, attempted_at, worker, address, http_status, error, latency_ms,
            response_body, response_truncated, outcome, next_attempt_at)
         SELECT $1, $5, $6, now() - make_interval(secs => $11::double precision / 1000), $7, $8, $9, $10, $11,
                $12, $13, $14, CASE WHEN $3 = 'pending' THEN t.next_at END
           FROM t
         ON CONFLICT DO NOTHING)
       UPDATE ${this.s}.webhook_deliveries
          SET status = $3, lease_owner = NULL, lease_until = NULL,
              next_attempt_at = CASE WHEN $3 = 'pending' THEN (SELECT next_at FROM t) ELSE next_attempt_at END,
              last_status = $9, last_error = $10,
              delivered_at = CASE WHEN $3 = 'succeeded' THEN now() END,
              dead_at = CASE WHEN $3 = 'dead' THEN now() END
        WHERE id = $1 AND lease_owner = $2`,
      [
        row.id,
        token,
        status,
        a.delayMs,
        row.attempts,
        row.tenant_id,
        this.opts.owner,
        a.address,
        a.httpStatus,
        a.error,
        a.latencyMs,
        a.responseBody,
        a.truncated,
        a.outcome,
      ],
    );
    const held = (res.rowCount ?? 0) > 0;
    if (a.outcome === 'dead' && held) {
      this.opts.log?.(
        'warn',
        `[${this.schema}] webhook delivery ${row.id} is dead after ${row.attempts} attempts: ${a.error}`,
      );
    }
    return held;
  }

  /** Removes finished deliveries (and their log) older than the retention, in small batches. */
  async purgeFinished(olderThanHours: number, limit = 5000): Promise<number> {
    const res = await this.pool.query(
      `DELETE FROM ${this.s}.webhook_deliveries WHERE id IN (
         SELECT id FROM ${this.s}.webhook_deliveries
          WHERE status IN ('succeeded', 'dead') AND created_at < now() - make_interval(hours => $1) LIMIT $2)`,
      [olderThanHours, limit],
    );
    return res.rowCount ?? 0;
  }
}

function withDeadline<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new WebhookTimeoutError(ms)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

function describe(err: unknown): string {
  if (err instanceof PublicTargetError) return `${err.reason}: ${err.message}`;
  if (err instanceof WebhookTimeoutError) return `timeout: ${err.message}`;
  const e = err as { code?: string; message?: string };
  return (e.code ? `${e.code}: ${e.message ?? ''}` : (e.message ?? String(err))).slice(0, 1000);
}
