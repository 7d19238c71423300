import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import type { Consumer, Producer } from 'kafkajs';
import { Pool } from 'pg';
import { poolTransaction } from '@platform/consumer';
import { DEAD_LETTER_TOPIC, LENDING_ACCOUNTING_TOPIC, LENDING_BUREAU_TOPIC } from '@platform/messaging';
import { Inbox, OutboxRelay, outboxTablesDdl, type RelayMessage, type RelayProducer } from '@platform/outbox';
import { TopicCollector, eventually, testKafka, withClient, type ReceivedMessage } from '@platform/testing';
import { startLending, type LendingFixture } from './lending-fixture';
import { activeLoan, idem, ok, type PaymentView } from './loans-helpers';

const ROOT = resolve(__dirname, '../../../..');

/**
 * A producer that refuses, as a broker refusing a topic would (not a retriable error), the messages
 * whose event id is listed: the relay then retries them and dead-letters them after its budget.
 */
class RefusingProducer implements RelayProducer {
  readonly refuse = new Set<string>();
  constructor(private readonly inner: Producer) {}

  async sendBatch(batch: { topicMessages: { topic: string; messages: RelayMessage[] }[]; acks?: number }) {
    for (const t of batch.topicMessages)
      for (const m of t.messages)
        if (t.topic !== DEAD_LETTER_TOPIC && this.refuse.has(m.headers['event-id']))
          throw new Error(`topic ${t.topic} refused the message (test)`);
    return this.inner.sendBatch(batch);
  }
}

/** The admin CLI as an operator runs it (`npm run admin -- lending ...`), from the sources. */
function adminCli(
  databaseUrl: string,
  args: string[],
): { status: number | null; json: unknown; stderr: string } {
  const run = spawnSync(
    process.execPath,
    [
      '-r',
      'ts-node/register/transpile-only',
      '-r',
      resolve(ROOT, 'scripts/register-paths.js'),
      resolve(ROOT, 'apps/lending/src/cli.ts'),
      ...args,
    ],
    {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        DATABASE_URL: databaseUrl,
        TS_NODE_PROJECT: resolve(ROOT, 'scripts/tsconfig.typecheck.json'),
      },
    },
  );
  let json: unknown = null;
  try {
    json = JSON.parse(run.stdout);
  } catch {
    /* left null: the assertion shows stdout and stderr */
  }
  return { status: run.status, json, stderr: run.stderr };
}

/**
 * Lending's contract events on Kafka (issue 14, "Done when"): the outbox relay publishes what a
 * disbursement and a payment through the API wrote; a consumer reads the bureau and accounting topics
 * and sees each event type once per change; its inbox drops a redelivered message; an event the
 * broker refuses lands on the dead-letter topic, is not lost, and the redrive command publishes it
 * again with the same event id.
 */
describe('lending contract events through Kafka (real PostgreSQL, Kafka-protocol broker)', () => {
  let s: LendingFixture;
  let a: Record<string, string>;
  let pool: Pool;
  let producer: Producer;
  let refusing: RefusingProducer;
  let relay: OutboxRelay;
  let collector: TopicCollector;
  let consumer: Consumer;
  const consumerSchema = `bookkeeper_${randomUUID().replace(/-/g, '').slice(0, 8)}`;
  const outcomes: { eventId: string; duplicate: boolean }[] = [];
  let loanId: string;
  let paymentId: string;
  /** The X-Request-Id the payment's caller sent: its messages' `request-id`. */
  const paymentRequestId = `req-${randomUUID()}`;

  const drain = () =>
    eventually(
      async () => {
        await relay.drain();
        const { rows } = await pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM lending.outbox WHERE sent_at IS NULL AND dead_at IS NULL`,
        );
        return rows[0].n === 0 ? true : undefined;
      },
      30_000,
      20,
    );
  const outboxOf = async (aggregateId: string) =>
    (
      await pool.query<{ id: string; topic: string; event_type: string }>(
        `SELECT id, topic, event_type FROM lending.outbox WHERE aggregate_id = $1 ORDER BY seq`,
        [aggregateId],
      )
    ).rows;
  const ofLoan = (topic: string) => (m: ReceivedMessage) => m.topic === topic && m.key === loanId;
  const countByType = (messages: ReceivedMessage[]) => {
    const n: Record<string, number> = {};
    for (const m of messages) n[m.headers['event-type']] = (n[m.headers['event-type']] ?? 0) + 1;
    return n;
  };

  beforeAll(async () => {
    s = await startLending('lending_kafka');
    a = await s.organization('bank-k');
    pool = new Pool({ connectionString: s.db.url, max: 6 });
    pool.on('error', () => undefined);
    producer = testKafka().producer({ maxInFlightRequests: 1 });
    await producer.connect();
    refusing = new RefusingProducer(producer);
    relay = new OutboxRelay(pool, 'lending', refusing, {
      owner: 'test-relay',
      batchSize: 100,
      leaseMs: 30_000,
      maxFailures: 2,
      backoffBaseMs: 1,
      backoffMaxMs: 5,
    });
    collector = await TopicCollector.start([
      LENDING_BUREAU_TOPIC,
      LENDING_ACCOUNTING_TOPIC,
      DEAD_LETTER_TOPIC,
    ]);

    // The accounting system's side: its own database schema with an inbox, and what it booked.
    await pool.query(`CREATE SCHEMA ${consumerSchema}`);
    for (const ddl of outboxTablesDdl(consumerSchema)) await pool.query(ddl);
    await pool.query(
      `CREATE TABLE ${consumerSchema}.booked (event_id uuid PRIMARY KEY, event_type text NOT NULL, amount bigint NOT NULL)`,
    );
    const inbox = new Inbox(consumerSchema, 'bookkeeper', poolTransaction(pool));
    consumer = testKafka().consumer({
      groupId: `bookkeeper-${randomUUID()}`,
      maxWaitTimeInMs: 100,
      sessionTimeout: 6000,
      heartbeatInterval: 1000,
    });
    await consumer.connect();
    await consumer.subscribe({ topics: [LENDING_ACCOUNTING_TOPIC], fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ topic, message }) => {
        const eventId = message.headers?.['event-id']?.toString() ?? '';
        const value = JSON.parse(message.value?.toString() ?? '{}') as {
          eventType: string;
          postings?: { amount: number }[];
        };
        const outcome = await inbox.handleOnce(eventId, topic, async (tx) => {
          const amount = (value.postings ?? []).reduce((x, p) => x + p.amount, 0);
          await tx.query(
            `INSERT INTO ${consumerSchema}.booked (event_id, event_type, amount) VALUES ($1, $2, $3)`,
            [eventId, value.eventType, amount],
          );
        });
        outcomes.push({ eventId, duplicate: outcome.duplicate });
      },
    });

    const { loan } = await activeLoan(s, a, 'bank-k', { product: { originationFee: 2_000 } });
    loanId = loan.id;
    const paid = await ok<PaymentView>(
      s.call({ ...idem(a), 'X-Request-Id': paymentRequestId }, 'POST', '/Loans/MakePayment', {
        loanId,
        amount: 50_000,
        channel: 'card',
      }),
    );
    paymentId = paid.transactionId as string;
  }, 120_000);

  afterAll(async () => {
    await consumer?.disconnect().catch(() => undefined);
    await collector?.stop();
    await producer?.disconnect().catch(() => undefined);
    await pool?.end();
    await s?.close();
  });

  it('publishes each bureau and accounting event of a disbursement and a payment once, keyed by the agreement', async () => {
    await drain();
    const written = await outboxOf(loanId);
    const bureau = written.filter((w) => w.topic === LENDING_BUREAU_TOPIC);
    const accounting = written.filter((w) => w.topic === LENDING_ACCOUNTING_TOPIC);
    expect(bureau.map((w) => w.event_type)).toEqual([
      'lending.bureau.loan-contract-concluded',
      'lending.bureau.loan-disbursed',
      'lending.bureau.payment-received',
    ]);
    expect(accounting.map((w) => w.event_type)).toEqual([
      'lending.accounting.loan-disbursed',
      'lending.accounting.fee-charged',
      'lending.accounting.payment-received',
      'lending.accounting.payment-allocated',
    ]);
    const seenBureau = await collector.waitFor(ofLoan(LENDING_BUREAU_TOPIC), bureau.length);
    const seenAccounting = await collector.waitFor(ofLoan(LENDING_ACCOUNTING_TOPIC), accounting.length);
    // Once per change: every type once, every event id once, and exactly the events written.
    for (const [seen, rows] of [
      [seenBureau, bureau],
      [seenAccounting, accounting],
    ] as const) {
      expect(Object.values(countByType(seen)).every((n) => n === 1)).toBe(true);
      expect(seen.map((m) => m.headers['event-id']).sort()).toEqual(rows.map((r) => r.id).sort());
      for (const m of seen) {
        expect(m.headers).toMatchObject({
          'tenant-id': 'bank-k',
          'schema-version': '1',
          'aggregate-type': 'lending.agreement',
        });
        expect(m.value).toMatchObject({ eventType: m.headers['event-type'], agreementId: loanId });
      }
    }
    // In the order written, on one partition (one agreement, one key).
    expect(new Set([...seenBureau, ...seenAccounting].map((m) => `${m.topic}:${m.partition}`)).size).toBe(2);
    expect(seenAccounting.map((m) => m.headers['event-type'])).toEqual(accounting.map((r) => r.event_type));
    // Each names the HTTP request that caused it: the payment's the id its caller sent, the
    // disbursement's the one lending gave its request.
    const requestIds = (messages: ReceivedMessage[], payment: boolean) =>
      new Set(
        messages
          .filter((m) => m.headers['event-type'].includes('.payment-') === payment)
          .map((m) => m.headers['request-id']),
      );
    const all = [...seenBureau, ...seenAccounting];
    expect(requestIds(all, true)).toEqual(new Set([paymentRequestId]));
    expect([...requestIds(all, false)]).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/)]);
  });

  it('publishes the events of the application the loan was made from, keyed by the application', async () => {
    const concluded = collector.messages.find(
      (m) => m.key === loanId && m.headers['event-type'] === 'lending.bureau.loan-contract-concluded',
    );
    const applicationId = (concluded?.value as { applicationId: string }).applicationId;
    const written = await outboxOf(applicationId);
    expect(written.map((w) => w.event_type)).toEqual([
      'lending.bureau.application-submitted',
      'lending.bureau.application-approved',
    ]);
    const seen = await collector.waitFor(
      (m) => m.topic === LENDING_BUREAU_TOPIC && m.key === applicationId,
      written.length,
    );
    expect(seen.map((m) => m.headers['event-id'])).toEqual(written.map((w) => w.id));
    for (const m of seen) {
      expect(m.headers).toMatchObject({ 'aggregate-type': 'lending.application', 'tenant-id': 'bank-k' });
      expect(m.value).toMatchObject({ eventType: m.headers['event-type'], applicationId });
    }
  });

  it('lets a consumer book each accounting event once, its inbox dropping a redelivered message', async () => {
    const accounting = (await outboxOf(loanId)).filter((w) => w.topic === LENDING_ACCOUNTING_TOPIC);
    const ids = new Set(accounting.map((r) => r.id));
    await eventually(
      async () => (outcomes.filter((o) => ids.has(o.eventId)).length >= ids.size ? true : undefined),
      20_000,
    );
    // The broker delivers the payment's allocation again (a relay retry after a lost ack, a rebalance).
    const [original] = collector.messages.filter(
      (m) => m.key === loanId && m.headers['event-type'] === 'lending.accounting.payment-allocated',
    );
    await producer.send({
      topic: LENDING_ACCOUNTING_TOPIC,
      messages: [{ key: original.key, value: JSON.stringify(original.value), headers: original.headers }],
    });
    const again = await eventually(
      async () => outcomes.find((o) => o.eventId === original.headers['event-id'] && o.duplicate),
      20_000,
    );
    expect(again).toEqual({ eventId: original.headers['event-id'], duplicate: true });
    expect(outcomes.filter((o) => o.eventId === original.headers['event-id'])).toEqual([
      { eventId: original.headers['event-id'], duplicate: false },
      { eventId: original.headers['event-id'], duplicate: true },
    ]);
    const booked = await pool.query<{ event_id: string; amount: string }>(
      `SELECT event_id, amount FROM ${consumerSchema}.booked WHERE event_id = ANY($1::uuid[])`,
      [[...ids]],
    );
    expect(booked.rows.map((r) => r.event_id).sort()).toEqual([...ids].sort());
    expect(booked.rows.find((r) => r.event_id === original.headers['event-id'])?.amount).toBe('50000');
  });

  it('dead-letters an event the broker refuses, keeps it, and publishes it again with the same id after the redrive command', async () => {
    // A second payment whose allocation the broker refuses.
    const before = (await outboxOf(loanId)).length;
    await ok(s.call(idem(a), 'POST', '/Loans/MakePayment', { loanId, amount: 10_000 }));
    const fresh = (await outboxOf(loanId)).slice(before);
    const refused = fresh.find((w) => w.event_type === 'lending.accounting.payment-allocated');
    expect(refused).toBeDefined();
    const eventId = refused?.id as string;
    refusing.refuse.add(eventId);
    await eventually(
      async () => {
        await relay.drain();
        const { rows } = await pool.query<{ dead: boolean }>(
          `SELECT dead_at IS NOT NULL AS dead FROM lending.outbox WHERE id = $1`,
          [eventId],
        );
        return rows[0].dead ? true : undefined;
      },
      20_000,
      20,
    );
    await drain();
    const [dead] = await collector.waitFor(
      (m) => m.topic === DEAD_LETTER_TOPIC && m.headers['event-id'] === eventId,
    );
    expect(dead.headers).toMatchObject({
      'original-topic': LENDING_ACCOUNTING_TOPIC,
      'event-type': 'lending.accounting.payment-allocated',
    });
    expect(dead.headers['dead-letter-reason']).toContain('refused');
    // The other events of the payment went on (a dead letter does not block its agreement).
    const others = fresh.filter((w) => w.id !== eventId).map((w) => w.id);
    await collector.waitFor((m) => others.includes(m.headers['event-id'] ?? ''), others.length);
    expect(
      collector.messages.some(
        (m) => m.topic === LENDING_ACCOUNTING_TOPIC && m.headers['event-id'] === eventId,
      ),
    ).toBe(false);

    // The cause is fixed; the operator redrives it. Nothing else is dead, so --all would pick the same.
    refusing.refuse.clear();
    const listed = adminCli(s.db.url, ['redrive-dead-events', '--list']);
    expect([listed.status, listed.stderr]).toEqual([0, expect.any(String)]);
    expect((listed.json as { dead: { id: string }[] }).dead.map((d) => d.id)).toEqual([eventId]);
    const run = adminCli(s.db.url, ['redrive-dead-events', eventId]);
    expect([run.status, run.json]).toEqual([
      0,
      {
        redriven: [
          expect.objectContaining({
            id: eventId,
            topic: LENDING_ACCOUNTING_TOPIC,
            eventType: 'lending.accounting.payment-allocated',
            lastError: expect.stringContaining('refused'),
          }),
        ],
      },
    ]);
    expect(run.stderr).toContain('"msg":"outbox redrive"');
    // A second run finds nothing left to redrive.
    expect(adminCli(s.db.url, ['redrive-dead-events', eventId]).json).toEqual({ redriven: [] });

    await drain();
    const [republished] = await collector.waitFor(
      (m) => m.topic === LENDING_ACCOUNTING_TOPIC && m.headers['event-id'] === eventId,
    );
    expect(republished.key).toBe(loanId);
    const row = await withClient(s.db.url, (c) =>
      c.query<{ sent: boolean; dead: boolean }>(
        `SELECT sent_at IS NOT NULL AS sent, dead_at IS NOT NULL AS dead FROM lending.outbox WHERE id = $1`,
        [eventId],
      ),
    );
    expect(row.rows[0]).toEqual({ sent: true, dead: false });
    // The consumer books it once, late but not lost.
    await eventually(
      async () => (outcomes.some((o) => o.eventId === eventId && !o.duplicate) ? true : undefined),
      20_000,
    );
    expect(paymentId).toBeTruthy();
  });

  it('refuses a redrive that names nothing, rather than redriving everything by accident', () => {
    const run = adminCli(s.db.url, ['redrive-dead-events']);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('say which dead events to redrive');
  });
});
