import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Pool, PoolClient, QueryResult } from 'pg';
import { EventHeader, DEAD_LETTER_TOPIC } from '@platform/messaging';
import { backoffDelayMs } from '@platform/network';
import { quoteSchema } from './sql';
import { CLAIM_RESULT, claimScript } from './relay-sql';
import {
  aggregateKey,
  chunkByBytes,
  isTransient,
  planBatch,
  toMessage,
  topicMessages,
  type OutboxRow,
  type Outgoing,
  type RelayMessage,
} from './relay-batch';
import { endSendSpans, startSendSpans } from './relay-tracing';

export type { RelayMessage } from './relay-batch';

/** What the relay needs from a Kafka producer (kafkajs `Producer` fits). */
export interface RelayProducer {
  sendBatch(batch: {
    topicMessages: { topic: string; messages: RelayMessage[] }[];
    acks?: number;
  }): Promise<unknown>;
}

export interface RelayOptions {
  /** Unique per replica: pod name + pid. */
  owner: string;
  batchSize: number;
  leaseMs: number;
  /** Message-specific failures before a row is dead-lettered. */
  maxFailures: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  deadLetterTopic?: string;
  log?: (level: 'info' | 'warn' | 'error', msg: string) => void;
}

export interface PollResult {
  claimed: number;
  sent: number;
  failed: number;
  deadLettered: number;
}

export interface DrainOptions {
  /** Stop after this many batches (default: until a claim comes back short of a full batch). */
  maxBatches?: number;
  /** Asked before each further claim; false ends the drain after the batches already claimed. */
  keepGoing?: () => boolean;
}

export interface DrainResult extends PollResult {
  batches: number;
  /** The drain stopped with a full last batch or on a failure: more events may be waiting. */
  more: boolean;
}

export interface SchemaLag {
  schema: string;
  pending: number;
  oldestPendingSeconds: number;
  dead: number;
  available: boolean;
}

interface Claim {
  rows: OutboxRow[];
  /** performance.now() before the claim's transaction began: its lease runs from no earlier. */
  startedAt: number;
}

type Settled<T> = { value: T } | { error: unknown };

interface Outcome {
  /** The whole batch, in seq order. */
  rows: OutboxRow[];
  sent: OutboxRow[];
  transient: OutboxRow[];
  /** seq -> reason */
  poisoned: Map<string, string>;
  /** Rows that go back without counting an attempt. */
  untouched: OutboxRow[];
  /** Every row went out, within its lease: the session may go on with the batch claimed behind. */
  clean: boolean;
}

/** Bytes of messages per produce request: under Kafka's default 1 MB message.max.bytes. */
const MAX_REQUEST_BYTES = 900_000;

const settle = <T>(p: Promise<T>): Promise<Settled<T>> =>
  p.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

/**
 * Drains one service's outbox table to Kafka. Several replicas may run: a claim takes a batch with
 * `FOR UPDATE SKIP LOCKED` and stamps a lease, so a crashed replica's rows come back when its lease
 * ends. Per-aggregate order holds because a row is claimable only when no earlier unsent row of the same
 * aggregate is leased by someone else or waiting out a backoff. Delivery is at least once; consumers
 * dedupe by event id.
 *
 * `drain` pipelines: it claims batch N+1 while batch N is on its way to the broker and marks batch N-1
 * sent meanwhile. Each drain leases under its own session token (`<owner>:<random>`), and a claim does
 * not treat rows leased under its own token as blocking: those are earlier batches of the same
 * pipeline, published one after the other by the same producer (one request in flight), so a later
 * event of the same aggregate may ride in the next batch. Anything that leaves a row of batch N unsent
 * (broker down, poison, a lease that ran short) ends the session: the batch claimed behind it goes back
 * unpublished, and the next drain's new token makes any leftover lease block like a stranger's.
 */
export class OutboxRelay {
  private readonly table: string;
  private readonly dlq: string;
  /** Rows the claim looks at first: room for the batches in flight (several replicas) and a new one. */
  private readonly headRows: number;
  /** Totals since start, updated as batches are marked. */
  readonly totals = { sent: 0, failed: 0, deadLettered: 0 };

  constructor(
    private readonly pool: Pool,
    readonly schema: string,
    private readonly producer: RelayProducer,
    private readonly opts: RelayOptions,
  ) {
    this.table = `${quoteSchema(schema)}.outbox`;
    this.dlq = opts.deadLetterTopic ?? DEAD_LETTER_TOPIC;
    this.headRows = Math.max(1000, opts.batchSize * 4);
  }

  private log(level: 'info' | 'warn' | 'error', msg: string): void {
    this.opts.log?.(level, `[${this.schema}] ${msg}`);
  }

  private newSession(): string {
    return `${this.opts.owner}:${randomBytes(6).toString('hex')}`;
  }

  private async claim(token: string): Promise<Claim> {
    const startedAt = performance.now();
    const params = { token, limit: this.opts.batchSize, leaseMs: this.opts.leaseMs, headRows: this.headRows };
    const client = await this.pool.connect();
    try {
      const head = await this.runClaim(client, claimScript(this.schema, params));
      let rows: OutboxRow[] = head.filter((r) => r.seq !== null);
      const headSize = head[0]?.head_size ?? 0;
      if (rows.length < this.opts.batchSize && headSize >= this.headRows) {
        // The head is congested: look at the whole backlog (a transaction of its own, same token).
        const limit = this.opts.batchSize - rows.length;
        rows = rows.concat(await this.runClaim(client, claimScript(this.schema, { ...params, limit }, true)));
      }
      return { rows: rows.sort((a, b) => Number(a.seq) - Number(b.seq)), startedAt };
    } finally {
      client.release();
    }
  }

  private async runClaim(
    client: PoolClient,
    script: string,
  ): Promise<(OutboxRow & { head_size?: number })[]> {
    try {
      // A multi-statement script answers with one result per statement.
      const results = (await client.query(script)) as unknown as QueryResult<OutboxRow>[];
      return results[CLAIM_RESULT].rows;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  }

  private async send(outgoing: Outgoing[]): Promise<void> {
    await this.producer.sendBatch({ topicMessages: topicMessages(outgoing), acks: -1 });
  }

  /** Equal jitter (libs/network): replicas failing on one cause do not retry in lockstep. */
  private backoff(n: number): number {
    const { backoffBaseMs, backoffMaxMs } = this.opts;
    return backoffDelayMs(n, { backoffBaseMs, backoffMaxMs, jitter: 'equal' });
  }

  /** One batch, claimed and marked before it returns (no pipelining). */
  async pollOnce(): Promise<PollResult> {
    const { claimed, sent, failed, deadLettered } = await this.drain({ maxBatches: 1 });
    return { claimed, sent, failed, deadLettered };
  }

  /**
   * Publishes batch after batch until a claim comes back short (caught up), `maxBatches` or
   * `keepGoing()` stops it, or a batch leaves a row unsent. Returns once every claimed row is marked
   * (sent, backing off, dead-lettered or released); throws the first database error after that.
   */
  async drain(options: DrainOptions = {}): Promise<DrainResult> {
    const maxBatches = options.maxBatches ?? Number.POSITIVE_INFINITY;
    const keepGoing = options.keepGoing ?? (() => true);
    const token = this.newSession();
    const result: DrainResult = { claimed: 0, sent: 0, failed: 0, deadLettered: 0, batches: 0, more: false };
    let marks: Promise<void> = Promise.resolve();
    let failure: { error: unknown } | undefined;
    // Marks run one after the other, off the publishing path; a failed mark ends the session.
    const mark = (work: () => Promise<void>) => {
      marks = marks.then(work).catch((error: unknown) => {
        failure ??= { error };
      });
    };

    let next: Promise<Settled<Claim>> | undefined = settle(this.claim(token));
    try {
      while (next) {
        const claimed = await next;
        next = undefined;
        if ('error' in claimed) {
          failure ??= claimed;
          break;
        }
        const batch = claimed.value;
        if (batch.rows.length === 0) break;
        if (failure) {
          // An earlier mark failed: stop here and let the next drain start a new session.
          mark(() => this.release(batch.rows, token));
          result.more = true;
          break;
        }
        result.batches++;
        result.claimed += batch.rows.length;
        const full = batch.rows.length >= this.opts.batchSize;
        if (full && result.batches < maxBatches && !failure && keepGoing()) {
          next = settle(this.claim(token));
        }
        const outcome = await this.publish(batch);
        mark(() => this.mark(outcome, token, result));
        if (!outcome.clean) {
          result.more = true;
          break;
        }
        if (!next) result.more = full;
      }
    } finally {
      // A batch claimed behind one that ended the session goes back unpublished.
      const ahead = next ? await next : undefined;
      if (ahead && 'value' in ahead && ahead.value.rows.length) {
        const rows = ahead.value.rows;
        mark(() => this.release(rows, token));
      } else if (ahead && 'error' in ahead) {
        failure ??= ahead;
      }
      await marks;
    }
    if (failure) throw failure.error;
    return result;
  }

  /** Sends a claimed batch; never throws: the outcome says what happened to each row. */
  private async publish(batch: Claim): Promise<Outcome> {
    const rows = batch.rows;
    const outcome: Outcome = {
      rows,
      sent: [],
      transient: [],
      poisoned: new Map(),
      untouched: [],
      clean: false,
    };
    // A lease must outlast the send with room to spare, or another replica may publish the same rows.
    if (performance.now() - batch.startedAt > this.opts.leaseMs / 2) {
      this.log(
        'warn',
        `${rows.length} claimed events waited past half their lease: they go back unpublished`,
      );
      outcome.untouched = rows;
      return outcome;
    }
    const plan = planBatch(rows);
    outcome.poisoned = plan.poisoned;
    outcome.untouched = plan.heldBack;
    const outgoing = plan.toSend.map((row) => ({ row, message: toMessage(row) }));
    const spans = startSendSpans(this.schema, outgoing);
    const chunks = chunkByBytes(outgoing, MAX_REQUEST_BYTES);
    let next = 0;
    try {
      // Chunks go out one after the other (one request in flight), so per-partition order holds.
      for (; next < chunks.length; next++) {
        await this.send(chunks[next]);
        for (const o of chunks[next]) outcome.sent.push(o.row);
      }
    } catch (batchErr) {
      const rest = chunks.slice(next).flat();
      if (isTransient(batchErr)) {
        this.log('warn', `broker unavailable, ${rest.length} events wait: ${(batchErr as Error).message}`);
        outcome.transient = rest.map((o) => o.row);
      } else {
        // Find the message that the broker refuses by sending one by one, keeping aggregate order.
        const blocked = new Set(plan.blocked);
        for (const o of rest) {
          const key = aggregateKey(o.row);
          if (blocked.has(key)) {
            outcome.transient.push(o.row);
            continue;
          }
          try {
            await this.send([o]);
            outcome.sent.push(o.row);
          } catch (err) {
            if (isTransient(err)) outcome.transient.push(o.row);
            else outcome.poisoned.set(o.row.seq, (err as Error).message);
            blocked.add(key);
          }
        }
      }
    }
    const failures = new Map(outcome.poisoned);
    for (const row of outcome.transient) failures.set(row.seq, 'broker unavailable');
    endSendSpans(spans, new Set(outcome.sent.map((r) => r.seq)), failures);
    // A send that outlived the lease may have raced another replica: end the session to be safe.
    const withinLease = performance.now() - batch.startedAt < this.opts.leaseMs;
    outcome.clean = withinLease && outcome.sent.length === rows.length;
    return outcome;
  }

  private async mark(outcome: Outcome, token: string, result: PollResult): Promise<void> {
    const client = await this.pool.connect();
    try {
      if (outcome.sent.length) {
        await client.query(
          `UPDATE ${this.table} SET sent_at = now(), attempts = attempts + 1, lease_owner = NULL, lease_until = NULL,
                  last_error = NULL WHERE seq = ANY($1::bigint[]) AND lease_owner = $2`,
          [outcome.sent.map((r) => r.seq), token],
        );
        this.count(result, 'sent', outcome.sent.length);
      }
      if (outcome.transient.length) {
        // One statement for the whole batch: an outage must not turn into a query per row.
        await client.query(
          `UPDATE ${this.table} o SET attempts = o.attempts + 1, lease_owner = NULL, lease_until = NULL,
                  available_at = now() + make_interval(secs => d.delay_ms / 1000), last_error = 'broker unavailable'
             FROM unnest($1::bigint[], $2::double precision[]) AS d(seq, delay_ms)
            WHERE o.seq = d.seq AND o.lease_owner = $3`,
          [
            outcome.transient.map((r) => r.seq),
            outcome.transient.map((r) => this.backoff(r.attempts + 1)),
            token,
          ],
        );
        this.count(result, 'failed', outcome.transient.length);
      }
      await this.markPoisoned(client, outcome, token, result);
      // Rows held back behind a failed one of their aggregate go back without counting as an attempt.
      if (outcome.untouched.length) await this.releaseWith(client, outcome.untouched, token);
    } finally {
      client.release();
    }
  }

  private async markPoisoned(
    client: PoolClient,
    outcome: Outcome,
    token: string,
    result: PollResult,
  ): Promise<void> {
    if (!outcome.poisoned.size) return;
    // In seq order: a dead letter of an aggregate goes out before a later one of the same aggregate.
    for (const r of outcome.rows.filter((x) => outcome.poisoned.has(x.seq))) {
      const reason = outcome.poisoned.get(r.seq) ?? 'unknown';
      const failures = r.failures + 1;
      if (failures >= this.opts.maxFailures && (await this.deadLetter(r, reason))) {
        await client.query(
          `UPDATE ${this.table} SET dead_at = now(), attempts = attempts + 1, failures = $2, last_error = $3,
                  lease_owner = NULL, lease_until = NULL WHERE seq = $1 AND lease_owner = $4`,
          [r.seq, failures, reason, token],
        );
        this.log('error', `event ${r.id} on ${r.topic} dead-lettered after ${failures} failures: ${reason}`);
        this.count(result, 'deadLettered', 1);
      } else {
        await client.query(
          `UPDATE ${this.table} SET attempts = attempts + 1, failures = $2, last_error = $3, lease_owner = NULL,
                  lease_until = NULL, available_at = now() + make_interval(secs => $4::double precision / 1000)
            WHERE seq = $1 AND lease_owner = $5`,
          [r.seq, failures, reason, this.backoff(failures), token],
        );
        this.count(result, 'failed', 1);
      }
    }
  }

  private count(result: PollResult, key: 'sent' | 'failed' | 'deadLettered', n: number): void {
    result[key] += n;
    this.totals[key] += n;
  }

  private async release(rows: OutboxRow[], token: string): Promise<void> {
    const client = await this.pool.connect();
    try {
      await this.releaseWith(client, rows, token);
    } finally {
      client.release();
    }
  }

  private async releaseWith(client: PoolClient, rows: OutboxRow[], token: string): Promise<void> {
    await client.query(
      `UPDATE ${this.table} SET lease_owner = NULL, lease_until = NULL WHERE seq = ANY($1::bigint[]) AND lease_owner = $2`,
      [rows.map((r) => r.seq), token],
    );
  }

  private async deadLetter(row: OutboxRow, reason: string): Promise<boolean> {
    const msg = toMessage(row);
    msg.headers[EventHeader.OriginalTopic] = row.topic;
    msg.headers[EventHeader.DeadLetterReason] = reason.slice(0, 500);
    try {
      await this.producer.sendBatch({ topicMessages: [{ topic: this.dlq, messages: [msg] }], acks: -1 });
      return true;
    } catch (err) {
      // Never drop a row: if the dead-letter topic is unreachable too, the row stays and is retried.
      this.log('error', `dead-letter publish of ${row.id} failed: ${(err as Error).message}`);
      return false;
    }
  }

  async lag(client?: PoolClient): Promise<SchemaLag> {
    const runner = client ?? this.pool;
    try {
      const { rows } = await runner.query<{ pending: string; oldest: number | null; dead: string }>(
        `SELECT count(*) FILTER (WHERE sent_at IS NULL AND dead_at IS NULL) AS pending,
                EXTRACT(EPOCH FROM now() - min(created_at) FILTER (WHERE sent_at IS NULL AND dead_at IS NULL))::float8 AS oldest,
                count(*) FILTER (WHERE dead_at IS NOT NULL) AS dead
           FROM ${this.table}`,
      );
      const r = rows[0];
      return {
        schema: this.schema,
        pending: Number(r.pending),
        oldestPendingSeconds: Math.max(0, Number(r.oldest ?? 0)),
        dead: Number(r.dead),
        available: true,
      };
    } catch {
      // The service that owns this schema may not have run its migrations yet.
      return { schema: this.schema, pending: 0, oldestPendingSeconds: 0, dead: 0, available: false };
    }
  }

  /** Sent rows are kept for a while for audit and replays, then removed in small batches. */
  async purgeSent(olderThanHours: number, limit = 5000): Promise<number> {
    const res = await this.pool.query(
      `DELETE FROM ${this.table} WHERE seq IN (
         SELECT seq FROM ${this.table} WHERE sent_at < now() - make_interval(hours => $1) LIMIT $2)`,
      [olderThanHours, limit],
    );
    return res.rowCount ?? 0;
  }
}
