import type { Pool, PoolClient } from 'pg';
import { contractFor, violations, EventHeader, DEAD_LETTER_TOPIC } from '@platform/messaging';
import { quoteSchema } from './sql';

/** What the relay needs from a Kafka producer (kafkajs `Producer` fits). */
export interface RelayProducer {
  sendBatch(batch: {
    topicMessages: { topic: string; messages: RelayMessage[] }[];
    acks?: number;
  }): Promise<unknown>;
}

export interface RelayMessage {
  key: string;
  value: string;
  headers: Record<string, string>;
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

interface OutboxRow {
  seq: string;
  id: string;
  topic: string;
  event_type: string;
  schema_version: number;
  aggregate_type: string;
  aggregate_id: string;
  tenant_id: string | null;
  request_id: string | null;
  payload: unknown;
  created_at: Date;
  attempts: number;
  failures: number;
}

export interface PollResult {
  claimed: number;
  sent: number;
  failed: number;
  deadLettered: number;
}

export interface SchemaLag {
  schema: string;
  pending: number;
  oldestPendingSeconds: number;
  dead: number;
  available: boolean;
}

/** Failures that are about the message itself, not the broker being away. */
class PoisonError extends Error {}

function isTransient(err: unknown): boolean {
  if (err instanceof PoisonError) return false;
  const e = err as { retriable?: boolean; name?: string; cause?: unknown; originalError?: unknown };
  if (e?.name === 'KafkaJSConnectionError' || e?.name === 'KafkaJSRequestTimeoutError') return true;
  if (e?.name === 'KafkaJSNumberOfRetriesExceeded' || e?.name === 'KafkaJSNonRetriableError') {
    const inner = e.cause ?? e.originalError;
    return inner ? isTransient(inner) : true;
  }
  if (e?.name === 'KafkaJSProtocolError') return e.retriable === true;
  return e?.retriable === true;
}

/**
 * Drains one service's outbox table to Kafka. Several replicas may run: a claim takes a batch with
 * `FOR UPDATE SKIP LOCKED` and stamps a lease, so a crashed replica's rows come back when its lease
 * ends. Per-aggregate order holds because a row is claimable only when no earlier unsent row of the same
 * aggregate is leased or waiting out a backoff. Delivery is at least once; consumers dedupe by event id.
 */
export class OutboxRelay {
  private readonly table: string;
  private readonly dlq: string;

  constructor(
    private readonly pool: Pool,
    readonly schema: string,
    private readonly producer: RelayProducer,
    private readonly opts: RelayOptions,
  ) {
    this.table = `${quoteSchema(schema)}.outbox`;
    this.dlq = opts.deadLetterTopic ?? DEAD_LETTER_TOPIC;
  }

  private log(level: 'info' | 'warn' | 'error', msg: string): void {
    this.opts.log?.(level, `[${this.schema}] ${msg}`);
  }

  async claim(): Promise<OutboxRow[]> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      // Claims are short; serialising them per schema makes the aggregate-order check race-free.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`outbox-claim:${this.schema}`]);
      const { rows } = await client.query<OutboxRow>(
        `WITH blocked AS (
           -- Aggregates whose earliest unsent event is out of reach (leased elsewhere or backing off):
           -- nothing from that event on may be claimed, or order would break. Computed once per claim.
           SELECT aggregate_type, aggregate_id, min(seq) AS first_seq FROM ${this.table}
           WHERE sent_at IS NULL AND dead_at IS NULL AND (available_at > now() OR lease_until >= now())
           GROUP BY aggregate_type, aggregate_id),
         candidates AS (
           SELECT o.seq FROM ${this.table} o
           LEFT JOIN blocked b ON b.aggregate_type = o.aggregate_type AND b.aggregate_id = o.aggregate_id
           WHERE o.sent_at IS NULL AND o.dead_at IS NULL
             AND o.available_at <= now()
             AND (o.lease_until IS NULL OR o.lease_until < now())
             AND (b.first_seq IS NULL OR o.seq < b.first_seq)
           ORDER BY o.seq
           LIMIT $2
           FOR UPDATE OF o SKIP LOCKED)
         UPDATE ${this.table} o
            SET lease_owner = $1, lease_until = now() + make_interval(secs => $3::double precision / 1000)
           FROM candidates c WHERE o.seq = c.seq
         RETURNING o.seq, o.id, o.topic, o.event_type, o.schema_version, o.aggregate_type, o.aggregate_id,
                   o.tenant_id, o.request_id, o.payload, o.created_at, o.attempts, o.failures`,
        [this.opts.owner, this.opts.batchSize, this.opts.leaseMs],
      );
      await client.query('COMMIT');
      return rows.sort((a, b) => Number(a.seq) - Number(b.seq));
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  private toMessage(row: OutboxRow): RelayMessage {
    const headers: Record<string, string> = {
      [EventHeader.EventId]: row.id,
      [EventHeader.EventType]: row.event_type,
      [EventHeader.SchemaVersion]: String(row.schema_version),
      [EventHeader.AggregateType]: row.aggregate_type,
      [EventHeader.OccurredAt]: row.created_at.toISOString(),
      [EventHeader.ContentType]: 'application/json',
    };
    if (row.tenant_id) headers[EventHeader.TenantId] = row.tenant_id;
    if (row.request_id) headers[EventHeader.RequestId] = row.request_id;
    return { key: row.aggregate_id, value: JSON.stringify(row.payload), headers };
  }

  /** The relay re-checks the contract: a row written around the writer must not reach consumers. */
  private checkContract(row: OutboxRow): void {
    const contract = contractFor(row.topic);
    if (!contract) throw new PoisonError(`no contract for topic ${row.topic}`);
    if (contract.schemaVersion !== row.schema_version) {
      throw new PoisonError(`schema version ${row.schema_version} does not match ${row.topic}`);
    }
    const problems = violations(contract, row.payload);
    if (problems.length) throw new PoisonError(`contract violation: ${problems.join('; ')}`);
  }

  private async send(rows: OutboxRow[]): Promise<void> {
    const byTopic = new Map<string, RelayMessage[]>();
    for (const r of rows) {
      const list = byTopic.get(r.topic) ?? [];
      list.push(this.toMessage(r));
      byTopic.set(r.topic, list);
    }
    await this.producer.sendBatch({
      topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
      acks: -1,
    });
  }

  private backoff(n: number): number {
    const exp = Math.min(this.opts.backoffMaxMs, this.opts.backoffBaseMs * 2 ** Math.max(0, n - 1));
    return Math.round(exp / 2 + (Math.random() * exp) / 2);
  }

  async pollOnce(): Promise<PollResult> {
    const rows = await this.claim();
    const result: PollResult = { claimed: rows.length, sent: 0, failed: 0, deadLettered: 0 };
    if (rows.length === 0) return result;

    const valid: OutboxRow[] = [];
    const poisoned = new Map<string, string>();
    for (const r of rows) {
      try {
        this.checkContract(r);
        valid.push(r);
      } catch (err) {
        poisoned.set(r.seq, (err as Error).message);
      }
    }
    const blockedAggregates = new Set<string>();
    const aggKey = (r: OutboxRow) => `${r.aggregate_type}\u0000${r.aggregate_id}`;
    const toSend = valid.filter((r) => {
      // A poisoned row holds back the later rows of its aggregate until it is dead-lettered.
      const earlierPoison = rows.some(
        (p) => poisoned.has(p.seq) && aggKey(p) === aggKey(r) && Number(p.seq) < Number(r.seq),
      );
      if (earlierPoison) blockedAggregates.add(aggKey(r));
      return !earlierPoison;
    });

    const sent: OutboxRow[] = [];
    const transientlyFailed: OutboxRow[] = [];
    try {
      if (toSend.length) await this.send(toSend);
      sent.push(...toSend);
    } catch (batchErr) {
      if (isTransient(batchErr)) {
        this.log('warn', `broker unavailable, ${toSend.length} events wait: ${(batchErr as Error).message}`);
        transientlyFailed.push(...toSend);
      } else {
        // Find the message that the broker refuses by sending one by one, keeping aggregate order.
        for (const r of toSend) {
          if (blockedAggregates.has(aggKey(r))) {
            transientlyFailed.push(r);
            continue;
          }
          try {
            await this.send([r]);
            sent.push(r);
          } catch (err) {
            if (isTransient(err)) transientlyFailed.push(r);
            else poisoned.set(r.seq, (err as Error).message);
            blockedAggregates.add(aggKey(r));
          }
        }
      }
    }

    const client = await this.pool.connect();
    try {
      if (sent.length) {
        await client.query(
          `UPDATE ${this.table} SET sent_at = now(), attempts = attempts + 1, lease_owner = NULL, lease_until = NULL,
                  last_error = NULL WHERE seq = ANY($1::bigint[]) AND lease_owner = $2`,
          [sent.map((r) => r.seq), this.opts.owner],
        );
        result.sent = sent.length;
      }
      if (transientlyFailed.length) {
        // One statement for the whole batch: an outage must not turn into a query per row.
        await client.query(
          `UPDATE ${this.table} o SET attempts = o.attempts + 1, lease_owner = NULL, lease_until = NULL,
                  available_at = now() + make_interval(secs => d.delay_ms / 1000), last_error = 'broker unavailable'
             FROM unnest($1::bigint[], $2::double precision[]) AS d(seq, delay_ms)
            WHERE o.seq = d.seq AND o.lease_owner = $3`,
          [
            transientlyFailed.map((r) => r.seq),
            transientlyFailed.map((r) => this.backoff(r.attempts + 1)),
            this.opts.owner,
          ],
        );
        result.failed += transientlyFailed.length;
      }
      for (const r of rows.filter((x) => poisoned.has(x.seq))) {
        const reason = poisoned.get(r.seq) ?? 'unknown';
        const failures = r.failures + 1;
        if (failures >= this.opts.maxFailures && (await this.deadLetter(r, reason))) {
          await client.query(
            `UPDATE ${this.table} SET dead_at = now(), attempts = attempts + 1, failures = $2, last_error = $3,
                    lease_owner = NULL, lease_until = NULL WHERE seq = $1 AND lease_owner = $4`,
            [r.seq, failures, reason, this.opts.owner],
          );
          this.log(
            'error',
            `event ${r.id} on ${r.topic} dead-lettered after ${failures} failures: ${reason}`,
          );
          result.deadLettered++;
        } else {
          await client.query(
            `UPDATE ${this.table} SET attempts = attempts + 1, failures = $2, last_error = $3, lease_owner = NULL,
                    lease_until = NULL, available_at = now() + make_interval(secs => $4::double precision / 1000)
              WHERE seq = $1 AND lease_owner = $5`,
            [r.seq, failures, reason, this.backoff(failures), this.opts.owner],
          );
          result.failed++;
        }
      }
      // Rows held back behind a failed one of their aggregate go back without counting as an attempt.
      const untouched = rows.filter(
        (r) => !sent.includes(r) && !transientlyFailed.includes(r) && !poisoned.has(r.seq),
      );
      if (untouched.length) {
        await client.query(
          `UPDATE ${this.table} SET lease_owner = NULL, lease_until = NULL WHERE seq = ANY($1::bigint[]) AND lease_owner = $2`,
          [untouched.map((r) => r.seq), this.opts.owner],
        );
      }
    } finally {
      client.release();
    }
    return result;
  }

  private async deadLetter(row: OutboxRow, reason: string): Promise<boolean> {
    const msg = this.toMessage(row);
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
