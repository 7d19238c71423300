import { spawnSync } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhookSignature } from '@platform/webhooks';
import { asOrganizationId } from '@platform/tenancy';
import { withClient } from '@platform/testing';
import { LoanEvents } from '../../src/loans/events/loan-events';
import { TenantData } from '../../src/tenancy/tenant-data';
import { derivedEventId } from '../../src/webhooks/webhook-events';
import { startLending, type LendingFixture } from './lending-fixture';
import { activeLoan, idem, ok } from './loans-helpers';

interface Received {
  path: string;
  at: number;
  headers: IncomingHttpHeaders;
  body: string;
}
interface Subscription {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  secret?: string;
}
interface Attempt {
  attemptNo: number;
  attemptedAt: string;
  responseStatus: number | null;
  error: string | null;
  latencyMs: number;
  responseBody: string | null;
  responseTruncated: boolean;
  outcome: string;
  nextAttemptAt: string | null;
}
interface Delivery {
  id: string;
  subscriptionId: string;
  event: string;
  eventId: string;
  status: string;
  attempts: number;
  nextAttemptAt: string | null;
  lastResponseStatus: number | null;
  deadAt: string | null;
  attemptLog: Attempt[];
}
interface Body {
  deliveryId: string;
  eventId: string;
  event: string;
  data: Record<string, unknown>;
}

/** A loopback receiver; each path answers what the test sets, every request is recorded. */
class Receiver {
  readonly received: Received[] = [];
  readonly replies = new Map<string, { status: number; body: string }>();
  private server?: Server;
  port = 0;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        this.received.push({
          path,
          at: Date.now(),
          headers: req.headers,
          body: Buffer.concat(chunks).toString(),
        });
        const reply = this.replies.get(path) ?? { status: 404, body: '' };
        res.writeHead(reply.status, { 'content-type': 'text/plain' });
        res.end(reply.body);
      });
    });
    await new Promise<void>((r) => this.server?.listen(0, '127.0.0.1', r));
    this.port = (this.server?.address() as AddressInfo).port;
  }

  url(path: string) {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  of(deliveryId: string) {
    return this.received.filter((r) => r.headers['x-service-delivery'] === deliveryId);
  }

  async stop() {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

/** `printf '%s' "$ts.$body" | openssl dgst -sha256 -hmac "$secret"`: the hex digest. */
function opensslHmac(secret: string, timestamp: string, body: string): string {
  const run = spawnSync('openssl', ['dgst', '-sha256', '-hmac', secret], { input: `${timestamp}.${body}` });
  if (run.status !== 0) throw new Error(`openssl failed: ${run.stderr}`);
  return /([0-9a-f]{64})/.exec(run.stdout.toString())?.[1] ?? '';
}

const until = async <T>(
  check: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 20_000,
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
};

const BASE_MS = 400;
const MAX_ATTEMPTS = 4;

/**
 * Lending's webhooks (issue 14, docs/lending/webhooks.md) against a real receiver on loopback (the
 * test-only allowance WEBHOOKS_ALLOW_PRIVATE_TARGETS=loopback; off by default, refused in production).
 */
describe('lending webhooks (real PostgreSQL, a loopback receiver)', () => {
  let s: LendingFixture;
  let a: Record<string, string>;
  let b: Record<string, string>;
  const receiver = new Receiver();
  const bigBody = 'x'.repeat(3000);

  beforeAll(async () => {
    await receiver.start();
    receiver.replies.set('/fail', { status: 500, body: bigBody });
    receiver.replies.set('/ok', { status: 200, body: 'thanks' });
    s = await startLending('lending_webhooks', {
      WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'loopback',
      WEBHOOKS_WORKER_INTERVAL_MS: '20',
      WEBHOOKS_MAX_ATTEMPTS: String(MAX_ATTEMPTS),
      WEBHOOKS_BACKOFF_BASE_MS: String(BASE_MS),
      WEBHOOKS_BACKOFF_MAX_MS: '60000',
    });
    a = await s.organization('bank-w');
    b = await s.organization('bank-x');
  }, 60_000);

  afterAll(async () => {
    await s?.close();
    await receiver.stop();
  });

  const subscribe = (events: string[], path: string, headers = a) =>
    ok<Subscription>(
      s.call(headers, 'POST', '/Webhooks/CreateSubscription', { url: receiver.url(path), events }),
      201,
    );
  const deliveries = (q: string, headers = a) =>
    ok<{ items: Delivery[]; total: number }>(s.call(headers, 'GET', `/Webhooks/GetDeliveries?${q}`));
  const outboxId = (loanId: string, type: string) =>
    withClient(s.db.url, async (c) => {
      const r = await c.query<{ id: string; payload: Record<string, unknown> }>(
        `SELECT id, payload FROM lending.outbox WHERE aggregate_id = $1 AND event_type = $2 ORDER BY seq DESC LIMIT 1`,
        [loanId, type],
      );
      return r.rows[0];
    });

  it('lists what a subscription can choose: the notifications, 33 bureau and 33 accounting events', async () => {
    const types = await ok<{ items: { event: string; group: string }[]; total: number }>(
      s.call(a, 'GET', '/Webhooks/GetEventTypes'),
    );
    expect(types.total).toBe(69);
    const count = (g: string) => types.items.filter((t) => t.group === g).length;
    expect([count('notification'), count('bureau'), count('accounting')]).toEqual([3, 33, 33]);
    expect(types.items.map((t) => t.event)).toEqual(
      expect.arrayContaining([
        'lending.notification.payment-overdue',
        'lending.notification.repayment-received',
      ]),
    );
  });

  it('refuses insecure and private destinations at subscription, with the verification service’s codes, localised', async () => {
    const refusal = async (url: string, lang = 'en') => {
      const r = await s.call(
        a,
        'POST',
        '/Webhooks/CreateSubscription',
        { url, events: ['lending.bureau.payment-received'] },
        lang,
      );
      return [r.status, r.body.value.reason, r.body.error];
    };
    expect(await refusal('https://10.1.2.3/hook')).toEqual([
      422,
      'WEBHOOK_URL_PRIVATE_ADDRESS',
      expect.stringContaining('10.1.2.3'),
    ]);
    expect(await refusal('https://169.254.169.254/latest/meta-data')).toEqual([
      422,
      'WEBHOOK_URL_PRIVATE_ADDRESS',
      expect.any(String),
    ]);
    expect(await refusal('https://[fd00::1]/hook')).toEqual([
      422,
      'WEBHOOK_URL_PRIVATE_ADDRESS',
      expect.any(String),
    ]);
    // Plain http only to loopback, and only under the test allowance.
    expect(await refusal('http://93.184.216.34/hook')).toEqual([
      422,
      'WEBHOOK_URL_INSECURE_SCHEME',
      expect.any(String),
    ]);
    expect(await refusal('ftp://93.184.216.34/hook')).toEqual([
      422,
      'WEBHOOK_URL_INSECURE_SCHEME',
      expect.any(String),
    ]);
    expect(await refusal('https://user:pw@93.184.216.34/hook')).toEqual([
      422,
      'WEBHOOK_URL_INVALID',
      expect.any(String),
    ]);
    expect(await refusal('https://10.1.2.3/hook', 'ru')).toEqual([
      422,
      'WEBHOOK_URL_PRIVATE_ADDRESS',
      expect.stringContaining('публичные адреса'),
    ]);
    const unknown = await s.call(a, 'POST', '/Webhooks/CreateSubscription', {
      url: receiver.url('/ok'),
      events: ['lending.bureau.no-such-event'],
    });
    expect([unknown.status, unknown.body.value.reason]).toEqual([400, 'VALIDATION_FAILED']);
    // Changing the URL goes through the same check.
    const sub = await subscribe(['lending.bureau.payment-received'], '/ok');
    const moved = await s.call(a, 'POST', '/Webhooks/UpdateSubscription', {
      subscriptionId: sub.id,
      url: 'https://192.168.1.10/hook',
    });
    expect([moved.status, moved.body.value.reason]).toEqual([422, 'WEBHOOK_URL_PRIVATE_ADDRESS']);
    await ok(s.call(a, 'POST', '/Webhooks/DeleteSubscription', { subscriptionId: sub.id }));
  });

  it('shows the signing secret once, never again, and hides the subscription from another organization', async () => {
    const sub = await subscribe(['lending.notification.loan-repaid'], '/ok');
    expect(sub.secret).toMatch(/^whsec_/);
    const read = await ok<Subscription>(
      s.call(a, 'GET', `/Webhooks/GetSubscription?SubscriptionId=${sub.id}`),
    );
    expect(read).toMatchObject({ id: sub.id, events: ['lending.notification.loan-repaid'], enabled: true });
    expect(read).not.toHaveProperty('secret');
    const listed = await ok<{ items: Subscription[] }>(s.call(a, 'GET', '/Webhooks/GetSubscriptions'));
    expect(JSON.stringify(listed)).not.toContain(sub.secret);
    const rotated = await ok<Subscription>(
      s.call(a, 'POST', '/Webhooks/RotateSecret', { subscriptionId: sub.id, overlapSeconds: 0 }),
    );
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(sub.secret);
    const stranger = await s.call(b, 'GET', `/Webhooks/GetSubscription?SubscriptionId=${sub.id}`);
    expect([stranger.status, stranger.body.value.reason]).toEqual([404, 'WEBHOOK_SUBSCRIPTION_NOT_FOUND']);
    await ok(s.call(a, 'POST', '/Webhooks/DeleteSubscription', { subscriptionId: sub.id }));
    const gone = await s.call(a, 'GET', `/Webhooks/GetSubscription?SubscriptionId=${sub.id}`);
    expect(gone.status).toBe(404);
  });

  it('retries a receiver answering 500 at growing intervals, logs every attempt, lands it dead, and redrives it to a 200', async () => {
    const sub = await subscribe(
      ['lending.notification.repayment-received', 'lending.bureau.payment-received'],
      '/fail',
    );
    const { loan } = await activeLoan(s, a, 'bank-w');
    await ok(
      s.call(idem(a), 'POST', '/Loans/MakePayment', { loanId: loan.id, amount: 25_000, channel: 'card' }),
    );
    const source = await outboxId(loan.id, 'lending.bureau.payment-received');

    const dead = await until(async () => {
      const page = await deliveries(`SubscriptionId=${sub.id}&Status=dead`);
      return page.total === 2 ? page.items : undefined;
    }, 30_000);
    const bureau = dead.find((d) => d.event === 'lending.bureau.payment-received') as Delivery;
    const notice = dead.find((d) => d.event === 'lending.notification.repayment-received') as Delivery;
    // The event id is the contract event's own (its Kafka event-id); the notification's is derived from it.
    expect(bureau.eventId).toBe(source.id);
    expect(notice.eventId).toBe(derivedEventId(source.id, 'lending.notification.repayment-received'));

    for (const d of [bureau, notice]) {
      expect(d).toMatchObject({
        status: 'dead',
        attempts: MAX_ATTEMPTS,
        nextAttemptAt: null,
        lastResponseStatus: 500,
      });
      expect(d.deadAt).not.toBeNull();
      expect(d.attemptLog.map((x) => [x.attemptNo, x.outcome, x.responseStatus])).toEqual([
        [1, 'retry', 500],
        [2, 'retry', 500],
        [3, 'retry', 500],
        [4, 'dead', 500],
      ]);
      for (const x of d.attemptLog) {
        expect([x.responseBody?.length, x.responseTruncated, x.error]).toEqual([2048, true, 'HTTP 500']);
      }
      expect(d.attemptLog.map((x) => x.nextAttemptAt === null)).toEqual([false, false, false, true]);
      // The intervals scheduled: n-th in [cap/2, cap] of cap = base * 2^(n-1), so never shorter than the one before.
      const scheduled = d.attemptLog
        .slice(0, -1)
        .map((x) => Date.parse(x.nextAttemptAt as string) - Date.parse(x.attemptedAt) - x.latencyMs);
      scheduled.forEach((ms, i) => {
        const cap = BASE_MS * 2 ** i;
        expect(ms).toBeGreaterThanOrEqual(cap / 2 - 20);
        expect(ms).toBeLessThanOrEqual(cap + 20);
        if (i > 0) expect(ms).toBeGreaterThanOrEqual(scheduled[i - 1] - 20);
      });
      // And what the receiver saw: four requests, each gap at least its scheduled interval, the last gap the longest.
      const seen = receiver.of(d.id);
      expect(seen).toHaveLength(MAX_ATTEMPTS);
      const gaps = seen.slice(1).map((r, i) => r.at - seen[i].at);
      gaps.forEach((g, i) => expect(g).toBeGreaterThanOrEqual(scheduled[i] - 30));
      expect(gaps[2]).toBeGreaterThan(gaps[0]);
    }

    // Every attempt carries the same signed bytes with the event id inside; openssl verifies the signature.
    const first = receiver.of(bureau.id)[0];
    const body = JSON.parse(first.body) as Body;
    expect(body).toMatchObject({
      deliveryId: bureau.id,
      eventId: source.id,
      event: 'lending.bureau.payment-received',
    });
    expect(body.data).toEqual(source.payload);
    const ts = first.headers['x-service-timestamp'] as string;
    expect(opensslHmac(sub.secret as string, ts, first.body)).toBe(first.headers['x-service-signature']);
    expect(opensslHmac('whsec_other', ts, first.body)).not.toBe(first.headers['x-service-signature']);
    expect(new Set(receiver.of(bureau.id).map((r) => r.body)).size).toBe(1);
    const noticeBody = JSON.parse(receiver.of(notice.id)[0].body) as Body;
    expect(noticeBody.data).toMatchObject({
      sourceEventId: source.id,
      loanId: loan.id,
      amount: 25_000,
      currency: 'KZT',
    });

    // The receiver is fixed; the dead bureau delivery is sent again, once, and succeeds.
    receiver.replies.set('/fail', { status: 200, body: 'ok now' });
    const redriven = await ok<{ deliveryId: string; status: string }>(
      s.call(a, 'POST', '/Webhooks/RedriveDelivery', { deliveryId: bureau.id }),
    );
    expect(redriven).toEqual({ deliveryId: bureau.id, status: 'pending' });
    const done = await until(async () => {
      const page = await deliveries(`SubscriptionId=${sub.id}&Status=succeeded`);
      return page.items.find((d) => d.id === bureau.id);
    });
    expect(done.attemptLog.map((x) => [x.attemptNo, x.outcome, x.responseStatus])).toEqual([
      [1, 'retry', 500],
      [2, 'retry', 500],
      [3, 'retry', 500],
      [4, 'dead', 500],
      [5, 'succeeded', 200],
    ]);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.of(bureau.id)).toHaveLength(MAX_ATTEMPTS + 1);
    expect(receiver.of(bureau.id)[MAX_ATTEMPTS].body).toBe(first.body);
    // The other one stays dead until it is redriven too.
    expect(receiver.of(notice.id)).toHaveLength(MAX_ATTEMPTS);
    const again = await s.call(a, 'POST', '/Webhooks/RedriveDelivery', { deliveryId: bureau.id });
    expect([again.status, again.body.value.reason]).toEqual([409, 'WEBHOOK_DELIVERY_NOT_DEAD']);
    const foreign = await s.call(b, 'POST', '/Webhooks/RedriveDelivery', { deliveryId: notice.id });
    expect([foreign.status, foreign.body.value.reason]).toEqual([404, 'WEBHOOK_DELIVERY_NOT_FOUND']);
    expect((await deliveries('', b)).total).toBe(0);
    await ok(s.call(a, 'POST', '/Webhooks/DeleteSubscription', { subscriptionId: sub.id }));
  }, 60_000);

  it('notifies an overdue payment for whoever emits it through LoanEvents (the accruals job does), signed', async () => {
    const sub = await subscribe(['lending.notification.payment-overdue'], '/ok');
    const { loan } = await activeLoan(s, a, 'bank-w');
    const base = (await outboxId(loan.id, 'lending.bureau.loan-disbursed')).payload;
    const org = asOrganizationId('bank-w');
    const sourceId = await s.app.get(TenantData).run(org, (tx) =>
      s.app.get(LoanEvents).emit(tx, org, 'lending.bureau.overdue-started', {
        customerId: base.customerId as string,
        bureauUid: base.bureauUid as string,
        eventDate: '2027-01-06',
        agreementId: loan.id,
        agreementType: 'loan',
        loanId: loan.id,
        overdueSince: '2027-01-05',
        overdueAmount: 94_560,
        currency: 'KZT',
        balances: {
          ...(base.balances as object),
          overduePrincipal: 74_560,
          overdueInterest: 20_000,
          daysPastDue: 1,
        },
      } as never),
    );
    const got = await until(() =>
      receiver.received.find(
        (r) => r.path === '/ok' && r.headers['x-service-event'] === 'lending.notification.payment-overdue',
      ),
    );
    const body = JSON.parse(got.body) as Body;
    expect(body).toMatchObject({
      eventId: derivedEventId(sourceId, 'lending.notification.payment-overdue'),
      event: 'lending.notification.payment-overdue',
      data: {
        sourceEventId: sourceId,
        loanId: loan.id,
        overdueSince: '2027-01-05',
        overdueAmount: 94_560,
        daysPastDue: 1,
      },
    });
    const check = verifyWebhookSignature(sub.secret as string, got.headers, got.body);
    expect(check).toMatchObject({ ok: true, eventType: 'lending.notification.payment-overdue' });
    await ok(s.call(a, 'POST', '/Webhooks/DeleteSubscription', { subscriptionId: sub.id }));
  });

  it('checks the destination again at delivery, and sends nothing to a paused subscription', async () => {
    const sub = await subscribe(['lending.bureau.loan-disbursed'], '/ok');
    // The address it names is now private (a DNS answer that changed, a URL edited behind the API's back).
    await withClient(s.db.url, (c) =>
      c.query(`UPDATE lending.webhook_subscriptions SET url = 'https://10.0.0.7/hook' WHERE id = $1`, [
        sub.id,
      ]),
    );
    const before = receiver.received.length;
    await activeLoan(s, a, 'bank-w');
    const attempt = await until(async () => {
      const page = await deliveries(`SubscriptionId=${sub.id}`);
      return page.items[0]?.attemptLog[0];
    });
    expect(attempt).toMatchObject({ responseStatus: null, outcome: 'retry' });
    expect(attempt.error).toContain('WEBHOOK_URL_PRIVATE_ADDRESS');
    expect(receiver.received.length).toBe(before);

    await ok(
      s.call(a, 'POST', '/Webhooks/UpdateSubscription', {
        subscriptionId: sub.id,
        url: receiver.url('/ok'),
        enabled: false,
      }),
    );
    const { total } = await deliveries(`SubscriptionId=${sub.id}`);
    await activeLoan(s, a, 'bank-w');
    await new Promise((r) => setTimeout(r, 300));
    expect((await deliveries(`SubscriptionId=${sub.id}`)).total).toBe(total);
    await ok(s.call(a, 'POST', '/Webhooks/DeleteSubscription', { subscriptionId: sub.id }));
  });
});
