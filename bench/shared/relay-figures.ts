/**
 * Relay figures against a running outbox-relay (the built app, as its own process): how fast it drains a
 * burst of committed outbox rows, what a raw kafkajs producer does with the same messages to the same
 * broker, and how long an event waits between its commit and its publication at a steady rate.
 *
 * Commit-to-publish is the row's `sent_at` (the relay's `now()` when it marks the batch sent, after the
 * broker acknowledged it with acks=-1) minus the moment this process saw the row's COMMIT return. Both
 * are the machine's wall clock; the relay and PostgreSQL run on the same box.
 */
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import type { Pool } from 'pg';
import { CalendarEventChanged, EventHeader, type CalendarEventChangedV1 } from '@platform/messaging';
import { OutboxWriter, quoteSchema } from '@platform/outbox';

/** The messages are calendar changes: the topic the calendar writes on every upsert. */
export const RELAY_TOPIC = CalendarEventChanged.topic;

const wallClockMs = () => performance.timeOrigin + performance.now();

/** `n` valid calendar changes over `aggregates` events (message keys), versions rising per event. */
export function calendarChanges(n: number, aggregates = 200): CalendarEventChangedV1[] {
  const ids = Array.from({ length: aggregates }, () => randomUUID());
  const changedAt = new Date().toISOString();
  return Array.from({ length: n }, (_, i) => ({
    eventId: ids[i % aggregates],
    accountId: 'bench',
    productId: 'bench',
    entityType: 'deal',
    entityId: `d-${i % aggregates}`,
    version: Math.floor(i / aggregates) + 1,
    title: `bench ${i}`,
    startsAt: null,
    endsAt: null,
    status: 'confirmed',
    changedAt,
  }));
}

/** The message the relay publishes for such a row (libs/outbox toMessage): key, value and headers. */
function asMessage(p: CalendarEventChangedV1) {
  return {
    key: p.eventId,
    value: JSON.stringify(p),
    headers: {
      [EventHeader.EventId]: randomUUID(),
      [EventHeader.EventType]: CalendarEventChanged.eventType,
      [EventHeader.SchemaVersion]: String(CalendarEventChanged.schemaVersion),
      [EventHeader.AggregateType]: CalendarEventChanged.aggregateType,
      [EventHeader.OccurredAt]: p.changedAt,
      [EventHeader.ContentType]: 'application/json',
      [EventHeader.TenantId]: p.accountId,
    },
  };
}

export interface Rate {
  messages: number;
  seconds: number;
  perSecond: number;
}

/**
 * A raw kafkajs producer, configured like the relay's (one request in flight, acks=-1), sending the
 * same messages in batches of the relay's size, one batch after the other: the relay's ceiling.
 */
export async function rawProducerRate(
  brokers: string,
  events: CalendarEventChangedV1[],
  batch: number,
): Promise<Rate> {
  const producer = new Kafka({
    clientId: 'bench-raw-producer',
    brokers: brokers.split(','),
    logLevel: logLevel.NOTHING,
  }).producer({ maxInFlightRequests: 1 });
  await producer.connect();
  try {
    const messages = events.map(asMessage);
    const send = (part: typeof messages) =>
      producer.sendBatch({ topicMessages: [{ topic: RELAY_TOPIC, messages: part }], acks: -1 });
    await send(messages.slice(0, batch)); // warm-up: connections and metadata
    const started = performance.now();
    for (let i = 0; i < messages.length; i += batch) await send(messages.slice(i, i + batch));
    const seconds = (performance.now() - started) / 1000;
    return { messages: messages.length, seconds, perSecond: Math.round(messages.length / seconds) };
  } finally {
    await producer.disconnect();
  }
}

export interface Drain extends Rate {
  dead: number;
  /** Batches marked sent, and the time each took from the previous mark (the first: from the commit). */
  batches: number;
  medianCycleMs: number;
  slowestCycleMs: number;
}

/** Access to one schema's outbox as the services write it (OutboxWriter), and its sent marks. */
export class OutboxProbe {
  private readonly writer: OutboxWriter;
  private readonly table: string;

  constructor(
    private readonly pool: Pool,
    schema: string,
  ) {
    this.writer = new OutboxWriter(schema);
    this.table = `${quoteSchema(schema)}.outbox`;
  }

  async pending(): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM ${this.table} WHERE sent_at IS NULL AND dead_at IS NULL`,
    );
    return Number(rows[0].n);
  }

  /** Fresh planner statistics of the outbox, as autovacuum would take them now. */
  async analyze(): Promise<void> {
    await this.pool.query(`ANALYZE ${this.table}`);
  }

  /** Waits until the relay has nothing left to publish in this schema. */
  async drained(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const left = await this.pending();
      if (left === 0) return;
      if (Date.now() > deadline) throw new Error(`relay left ${left} events unpublished in ${this.table}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** The unsent rows by state: what a stalled relay left behind. */
  async unsentSummary(): Promise<string[]> {
    const { rows } = await this.pool.query<Record<string, unknown>>(
      `SELECT count(*)::int AS rows, lease_owner, max(lease_until) AS lease_until, attempts, failures,
              min(available_at) AS available_at, left(last_error, 200) AS last_error
         FROM ${this.table} WHERE sent_at IS NULL AND dead_at IS NULL
        GROUP BY lease_owner, attempts, failures, left(last_error, 200) ORDER BY 1 DESC LIMIT 10`,
    );
    return [
      `unsent rows in ${this.table} by state (now ${new Date().toISOString()}):`,
      ...rows.map((r) => `  ${JSON.stringify(r)}`),
    ];
  }

  /** What every connection to this database is doing, longest-running first. */
  async activity(): Promise<string[]> {
    const { rows } = await this.pool.query<Record<string, unknown>>(
      `SELECT application_name, state, wait_event_type, wait_event,
              round(extract(epoch FROM now() - query_start)::numeric, 1) AS seconds, left(query, 160) AS query
         FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
        ORDER BY query_start NULLS LAST LIMIT 20`,
    );
    return ['database sessions:', ...rows.map((r) => `  ${JSON.stringify(r)}`)];
  }

  /** `sent_at` of these rows in wall-clock ms (undefined while unsent), and how many were dead-lettered. */
  async sentAt(ids: string[]): Promise<{ sent: Map<string, number>; dead: number }> {
    const { rows } = await this.pool.query<{ id: string; sent: string | null; dead: boolean }>(
      `SELECT id, extract(epoch FROM sent_at) * 1000 AS sent, dead_at IS NOT NULL AS dead
         FROM ${this.table} WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    const sent = new Map<string, number>();
    for (const r of rows) if (r.sent !== null) sent.set(r.id, Number(r.sent));
    return { sent, dead: rows.filter((r) => r.dead).length };
  }

  /**
   * All events in one transaction; `analyze` refreshes the planner's statistics inside it, so they
   * count the burst from the moment the relay can see it. Returns the row ids and when COMMIT returned.
   */
  private async burst(
    events: CalendarEventChangedV1[],
    analyze: boolean,
  ): Promise<{ ids: string[]; committedAt: number }> {
    const ids: string[] = [];
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      for (const e of events) {
        ids.push(await this.writer.append(client, CalendarEventChanged, e, { tenantId: e.accountId }));
      }
      if (analyze) await client.query(`ANALYZE ${this.table}`);
      await client.query('COMMIT');
      return { ids, committedAt: wallClockMs() };
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  /**
   * The relay's drain rate from a standing start (it wakes on the commit's NOTIFY): the time from the
   * burst's COMMIT to the last row marked sent. The statistics count the burst (see `firstPublish`
   * for what happens when they do not), so this is the relay's own cost, the same from run to run.
   */
  async drainRate(events: CalendarEventChangedV1[], timeoutMs: number): Promise<Drain> {
    const { ids, committedAt } = await this.burst(events, true);
    await this.drained(timeoutMs);
    const { sent, dead } = await this.sentAt(ids);
    // Rows of one batch share their `sent_at`: the gaps between distinct marks are the relay's cycles.
    const marks = [...new Set(sent.values())].sort((a, b) => a - b);
    const cycles = marks.map((m, i) => m - (i ? marks[i - 1] : committedAt)).sort((a, b) => a - b);
    const seconds = ((marks.at(-1) ?? committedAt) - committedAt) / 1000;
    return {
      messages: sent.size,
      seconds,
      perSecond: Math.round(sent.size / seconds),
      dead,
      batches: marks.length,
      medianCycleMs: cycles[Math.floor(cycles.length / 2)] ?? NaN,
      slowestCycleMs: cycles.at(-1) ?? NaN,
    };
  }

  /**
   * A burst meeting the statistics a relay in service usually has: taken while every row was sent
   * (what autovacuum leaves between bursts), so the planner believes almost nothing is pending. Time
   * from COMMIT to the first batch marked sent. A claim still running after `capMs` is cancelled (the
   * relay retries it next cycle, after fresh statistics) so that the bench goes on; the figure is then
   * "more than capMs".
   */
  async firstPublish(
    events: CalendarEventChangedV1[],
    capMs: number,
    timeoutMs: number,
  ): Promise<{ firstMs: number | undefined; cancelled: number }> {
    await this.analyze();
    const { ids, committedAt } = await this.burst(events, false);
    const { rows } = await this.pool.query<{ lo: string; hi: string }>(
      `SELECT min(seq) AS lo, max(seq) AS hi FROM ${this.table} WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    const range = [rows[0].lo, rows[0].hi];
    let firstMs: number | undefined;
    let cancelled = 0;
    while (wallClockMs() - committedAt < capMs) {
      const first = await this.pool.query<{ at: string | null }>(
        `SELECT extract(epoch FROM min(sent_at)) * 1000 AS at FROM ${this.table}
          WHERE seq BETWEEN $1 AND $2 AND sent_at IS NOT NULL`,
        range,
      );
      if (first.rows[0].at !== null) {
        firstMs = Number(first.rows[0].at) - committedAt;
        break;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    if (firstMs === undefined) {
      await this.analyze();
      const res = await this.pool.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity
          WHERE datname = current_database() AND application_name LIKE 'outbox-relay%' AND state = 'active'
            AND now() - query_start > make_interval(secs => $1::double precision / 1000)
            AND pg_cancel_backend(pid)`,
        [capMs / 2],
      );
      cancelled = res.rowCount ?? 0;
    }
    await this.drained(timeoutMs);
    return { firstMs, cancelled };
  }

  /**
   * Each event in its own transaction (one autocommit statement, as a service's write commits it),
   * started on a fixed schedule of `rate` per second without waiting for earlier ones; then each
   * event's commit-to-publish time.
   */
  async latencyAtRate(
    events: CalendarEventChangedV1[],
    rate: number,
    timeoutMs: number,
  ): Promise<{ achievedRate: number; latencies: number[]; unsent: number; dead: number }> {
    const commits = new Map<string, number>();
    const writes: Promise<void>[] = [];
    const started = performance.now();
    let i = 0;
    while (i < events.length) {
      const due = Math.min(events.length, Math.floor(((performance.now() - started) / 1000) * rate) + 1);
      for (; i < due; i++) {
        const e = events[i];
        writes.push(
          this.writer
            .append(this.pool, CalendarEventChanged, e, { tenantId: e.accountId })
            .then((id) => void commits.set(id, wallClockMs())),
        );
      }
      await new Promise((r) => setTimeout(r, 1));
    }
    await Promise.all(writes);
    const achievedRate = Math.round(events.length / ((performance.now() - started) / 1000));
    await this.drained(timeoutMs);
    const { sent, dead } = await this.sentAt([...commits.keys()]);
    const latencies = [...commits]
      .filter(([id]) => sent.has(id))
      .map(([id, at]) => (sent.get(id) as number) - at)
      .sort((a, b) => a - b);
    return { achievedRate, latencies, unsent: commits.size - sent.size, dead };
  }
}
