import { createHmac, randomUUID } from 'node:crypto';
import { Pool } from 'pg';
import {
  enqueueWebhook,
  verifyWebhookSignature,
  webhookBody,
  WebhookDeliveries,
  WebhookDeliveryWorker,
  WebhookHeader,
  WebhookSecretBox,
  WebhookSubscriptions,
  webhookEnabledDdl,
  webhookTablesDdl,
  type WebhookWorkerOptions,
} from '../src';
import {
  publicTargetPolicy,
  PublicTargetError,
  PublicTargetRefusal,
  type HostResolver,
} from '@platform/network';
import { WebhookReceiver, type ReceivedWebhook } from './webhook-receiver';
import { freshDatabase, type TestDatabase } from '@platform/dev-infra';

/**
 * The contract suite of signed webhook delivery (decision 0018): real PostgreSQL, a loopback receiver
 * under the test-only allowance, workers as the services run them.
 */
describe('@platform/webhooks (real PostgreSQL, loopback receiver)', () => {
  const schema = 'wh';
  const box = new WebhookSecretBox('test-encryption-key-0123456789abcdef');
  const loopback = publicTargetPolicy('loopback', 'test');
  const receiver = new WebhookReceiver();
  let db: TestDatabase;
  let pool: Pool;
  let subs: WebhookSubscriptions;
  let deliveries: WebhookDeliveries;

  const worker = (opts: Partial<WebhookWorkerOptions> = {}) =>
    new WebhookDeliveryWorker(pool, schema, {
      owner: `w-${randomUUID().slice(0, 8)}`,
      secretBox: box,
      policy: loopback,
      backoffBaseMs: 50,
      backoffMaxMs: 200,
      maxAttempts: 5,
      timeoutMs: 2000,
      leaseMs: 10_000,
      ...opts,
    });

  const tenant = () => `t-${randomUUID()}`;

  /** Enqueues in a transaction of its own, as a service does next to its business write. */
  async function enqueue(tenantId: string, eventType: string, payload: unknown, subscriptionIds?: string[]) {
    const c = await pool.connect();
    try {
      await c.query('BEGIN');
      const out = await enqueueWebhook(c, schema, {
        tenantId,
        eventType,
        eventId: randomUUID(),
        payload,
        subscriptionIds,
      });
      await c.query('COMMIT');
      return out;
    } finally {
      c.release();
    }
  }

  async function delivery(id: string) {
    const { rows } = await pool.query(`SELECT * FROM ${schema}.webhook_deliveries WHERE id = $1`, [id]);
    return rows[0];
  }

  async function attempts(id: string) {
    const { rows } = await pool.query(
      `SELECT * FROM ${schema}.webhook_delivery_attempts WHERE delivery_id = $1 ORDER BY attempt_no`,
      [id],
    );
    return rows;
  }

  /** Runs rounds until the delivery reaches `status` (retries wait out their backoff). */
  async function runUntil(w: WebhookDeliveryWorker, id: string, status: string, timeoutMs = 10_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await w.runOnce();
      const d = await delivery(id);
      if (d.status === status) return d;
      if (Date.now() > deadline) throw new Error(`delivery ${id} is ${d.status}, not ${status}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async function subscribe(tenantId: string, path: string, eventTypes: string[] = []) {
    return subs.create(tenantId, { url: receiver.url(path), eventTypes });
  }

  beforeAll(async () => {
    db = await freshDatabase('webhooks');
    pool = new Pool({ connectionString: db.url, max: 20 });
    // Dropping the database at the end terminates whatever is still connected: not a test failure.
    pool.on('error', () => undefined);
    await pool.query(`CREATE SCHEMA ${schema}`);
    for (const ddl of [...webhookTablesDdl(schema), ...webhookEnabledDdl(schema)]) await pool.query(ddl);
    subs = new WebhookSubscriptions(pool, schema, { secretBox: box, policy: loopback });
    deliveries = new WebhookDeliveries(pool, schema);
    await receiver.start();
  });

  afterAll(async () => {
    await receiver.stop();
    await pool?.end();
    await db?.drop();
  });

  describe('subscriptions', () => {
    it('show the secret once, keep it only encrypted, and never list it', async () => {
      const t = tenant();
      const { subscription, secret } = await subscribe(t, '/sub-secret', ['case.status_changed']);
      expect(secret).toMatch(/^whsec_/);
      expect(subscription).toMatchObject({
        tenantId: t,
        url: receiver.url('/sub-secret'),
        eventTypes: ['case.status_changed'],
      });
      const listed = await subs.list(t);
      expect(listed).toHaveLength(1);
      expect(JSON.stringify(listed)).not.toContain(secret);
      expect(JSON.stringify(await subs.get(t, subscription.id))).not.toContain(secret);
      const { rows } = await pool.query(`SELECT * FROM ${schema}.webhook_subscriptions WHERE id = $1`, [
        subscription.id,
      ]);
      expect(JSON.stringify(rows[0])).not.toContain(secret.slice(6));
      // Another tenant sees nothing and can change nothing.
      expect(await subs.list(tenant())).toEqual([]);
      expect(await subs.get(tenant(), subscription.id)).toBeUndefined();
      expect(await subs.rotateSecret(tenant(), subscription.id)).toBeUndefined();
      expect(await subs.delete(tenant(), subscription.id)).toBe(false);
    });

    it('refuse private targets at subscription time when the allowance is off', async () => {
      const strict = new WebhookSubscriptions(pool, schema, { secretBox: box });
      const fakeDns: HostResolver = async () => [{ address: '127.0.0.1', family: 4 }];
      const strictFake = new WebhookSubscriptions(pool, schema, { secretBox: box, resolve: fakeDns });
      const reasons = await Promise.all(
        [
          strict.create(tenant(), { url: 'https://localhost/hook' }),
          strict.create(tenant(), { url: 'https://127.0.0.1/hook' }),
          strict.create(tenant(), { url: 'https://[::1]/hook' }),
          strict.create(tenant(), { url: 'https://169.254.169.254/latest' }),
          strict.create(tenant(), { url: receiver.url('/x') }),
          strictFake.create(tenant(), { url: 'https://hooks.partner.example/in' }),
        ].map((p) =>
          p.then(
            () => 'accepted',
            (e: unknown) => (e instanceof PublicTargetError ? e.reason : String(e)),
          ),
        ),
      );
      expect(reasons).toEqual([
        PublicTargetRefusal.PRIVATE_ADDRESS,
        PublicTargetRefusal.PRIVATE_ADDRESS,
        PublicTargetRefusal.PRIVATE_ADDRESS,
        PublicTargetRefusal.PRIVATE_ADDRESS,
        PublicTargetRefusal.INSECURE_SCHEME,
        PublicTargetRefusal.PRIVATE_ADDRESS,
      ]);
    });
    it('update: a new URL checked again, new event types, a pause that enqueues nothing; same secret', async () => {
      const t = tenant();
      const { subscription, secret } = await subscribe(t, '/upd-a', ['case.status_changed']);
      const moved = await subs.update(t, subscription.id, {
        url: receiver.url('/upd-b'),
        eventTypes: ['summary.generated', 'summary.generated'],
        description: 'moved',
      });
      expect(moved).toMatchObject({
        url: receiver.url('/upd-b'),
        eventTypes: ['summary.generated'],
        description: 'moved',
        enabled: true,
      });
      await expect(subs.update(t, subscription.id, { url: 'https://10.0.0.1/x' })).rejects.toMatchObject({
        reason: PublicTargetRefusal.PRIVATE_ADDRESS,
      });
      expect(await subs.update(tenant(), subscription.id, { enabled: false })).toBeUndefined();
      expect((await subs.update(t, subscription.id, { enabled: false }))?.enabled).toBe(false);
      const ev = (eventId: string, subscriptionIds?: string[]) =>
        enqueueWebhook(pool, schema, {
          tenantId: t,
          eventType: 'summary.generated',
          eventId,
          payload: {},
          subscriptionIds,
        });
      expect(await ev('paused-1')).toEqual([]);
      // Addressed explicitly (a test ping), a paused subscription still gets it.
      expect(await ev('paused-2', [subscription.id])).toHaveLength(1);
      expect(
        (await subs.update(t, subscription.id, { enabled: true, description: null }))?.description,
      ).toBeNull();
      expect(await ev('resumed-1')).toHaveLength(1);
      const { rows } = await pool.query(
        `SELECT secret_ciphertext FROM ${schema}.webhook_subscriptions WHERE id = $1`,
        [subscription.id],
      );
      expect(box.open(rows[0].secret_ciphertext, subscription.id)).toBe(secret);
      await pool.query(`DELETE FROM ${schema}.webhook_deliveries WHERE tenant_id = $1`, [t]);
    });
  });

  describe('enqueue', () => {
    it('commits and rolls back with the business transaction, dedupes an event, stays in its tenant', async () => {
      const t = tenant();
      const { subscription: a } = await subscribe(t, '/enq-a', ['case.status_changed']);
      const { subscription: b } = await subscribe(t, '/enq-b', ['summary.generated']);
      const { subscription: other } = await subscribe(tenant(), '/enq-other');

      const c = await pool.connect();
      try {
        await c.query('BEGIN');
        const rolled = await enqueueWebhook(c, schema, {
          tenantId: t,
          eventType: 'case.status_changed',
          eventId: 'ev-rb',
          payload: {},
        });
        expect(rolled).toHaveLength(1);
        await c.query('ROLLBACK');
      } finally {
        c.release();
      }
      expect((await deliveries.list(t)).total).toBe(0);

      // All-for-tenant picks the subscriptions listening to the type; ids of another tenant are ignored.
      const first = await enqueueWebhook(pool, schema, {
        tenantId: t,
        eventType: 'case.status_changed',
        eventId: 'ev-1',
        payload: { n: 1 },
      });
      expect(first.map((d) => d.subscriptionId)).toEqual([a.id]);
      expect(
        await enqueueWebhook(pool, schema, {
          tenantId: t,
          eventType: 'case.status_changed',
          eventId: 'ev-1',
          payload: { n: 1 },
        }),
      ).toEqual([]);
      const chosen = await enqueueWebhook(pool, schema, {
        tenantId: t,
        eventType: 'case.status_changed',
        eventId: 'ev-2',
        payload: {},
        subscriptionIds: [b.id, other.id, 'not-a-uuid'],
      });
      expect(chosen.map((d) => d.subscriptionId)).toEqual([b.id]);
      expect((await deliveries.list(t)).total).toBe(2);
      // No receiver listens on these paths: keep them from the workers of the tests below.
      await pool.query(`DELETE FROM ${schema}.webhook_deliveries WHERE tenant_id = $1`, [t]);
    });
  });

  describe('delivery', () => {
    it('signs as the spec says: verifiable by the exported verifier and by an independent HMAC', async () => {
      const t = tenant();
      const { subscription, secret } = await subscribe(t, '/signed');
      receiver.on('/signed', () => ({ status: 204 }));
      const [d] = await enqueue(t, 'case.status_changed', { caseId: 'c-1', status: 'AwaitingApplicant' });
      const w = worker();
      await w.runOnce();

      const [got] = receiver.at('/signed');
      const ts = got.headers['x-service-timestamp'] as string;
      expect(Number(ts)).toBeCloseTo(Date.now() / 1000, -2);
      expect(got.headers['x-service-event']).toBe('case.status_changed');
      expect(got.headers['x-service-delivery']).toBe(d.deliveryId);
      const independent = createHmac('sha256', secret).update(`${ts}.${got.body}`).digest('hex');
      expect(got.headers['x-service-signature']).toBe(independent);
      expect(verifyWebhookSignature(secret, got.headers, got.body, 300)).toMatchObject({
        ok: true,
        deliveryId: d.deliveryId,
      });
      expect(verifyWebhookSignature('whsec_wrong', got.headers, got.body, 300).ok).toBe(false);

      const body = JSON.parse(got.body);
      expect(body).toMatchObject({
        deliveryId: d.deliveryId,
        event: 'case.status_changed',
        data: { caseId: 'c-1', status: 'AwaitingApplicant' },
      });
      const row = await delivery(d.deliveryId);
      expect(body.eventId).toBe(row.event_id);
      expect(row).toMatchObject({ status: 'succeeded', attempts: 1, last_status: 204, lease_owner: null });
      expect(row.delivered_at).toBeInstanceOf(Date);
      expect(got.body).toBe(
        webhookBody({
          deliveryId: row.id,
          eventId: row.event_id,
          eventType: row.event_type,
          createdAt: row.created_at,
          payload: row.payload,
        }),
      );
      expect(await attempts(d.deliveryId)).toMatchObject([
        { attempt_no: 1, http_status: 204, outcome: 'succeeded', address: '127.0.0.1' },
      ]);
      expect(subscription.id).toBe(row.subscription_id);
    });

    it('retries a 500 with exponential backoff and full jitter, then succeeds', async () => {
      const t = tenant();
      await subscribe(t, '/flaky');
      receiver.on('/flaky', (n) =>
        n <= 2 ? { status: 500, body: `boom ${n}` } : { status: 200, body: 'ok' },
      );
      const [d] = await enqueue(t, 'document.uploaded', { documentId: 'd-1' });
      const w = worker({ backoffBaseMs: 300, backoffMaxMs: 500 });
      const done = await runUntil(w, d.deliveryId, 'succeeded');
      expect(done.attempts).toBe(3);
      const log = await attempts(d.deliveryId);
      expect(log.map((a) => [a.attempt_no, a.http_status, a.outcome, a.response_body])).toEqual([
        [1, 500, 'retry', 'boom 1'],
        [2, 500, 'retry', 'boom 2'],
        [3, 200, 'succeeded', 'ok'],
      ]);
      expect(log[2].next_attempt_at).toBeNull();
      // Each retry waited in [0, min(max, base * 2^(n-1))] after its failure, and ran no earlier.
      for (const [i, cap] of [
        [0, 300],
        [1, 500],
      ]) {
        const failedAt = log[i].attempted_at.getTime() + log[i].latency_ms;
        const wait = log[i].next_attempt_at.getTime() - failedAt;
        expect(wait).toBeGreaterThanOrEqual(-5);
        expect(wait).toBeLessThanOrEqual(cap + 50);
        expect(log[i + 1].attempted_at.getTime()).toBeGreaterThanOrEqual(
          log[i].next_attempt_at.getTime() - 50,
        );
      }
      // Same delivery id and the same bytes on every attempt: the receiver dedupes on it.
      const got = receiver.at('/flaky');
      expect(new Set(got.map((g) => g.headers['x-service-delivery']))).toEqual(new Set([d.deliveryId]));
      expect(new Set(got.map((g) => g.body)).size).toBe(1);
    });

    it('is dead after N attempts with truncated bodies in the log; redrive delivers it', async () => {
      const t = tenant();
      const { subscription } = await subscribe(t, '/down');
      let up = false;
      receiver.on('/down', () => (up ? { status: 200 } : { status: 503, body: 'x'.repeat(10_000) }));
      const [d] = await enqueue(t, 'summary.generated', { id: 1 });
      const w = worker({ maxAttempts: 3, backoffBaseMs: 10, backoffMaxMs: 20 });
      const dead = await runUntil(w, d.deliveryId, 'dead');
      expect(dead).toMatchObject({ attempts: 3, last_status: 503, last_error: 'HTTP 503' });
      expect(dead.dead_at).toBeInstanceOf(Date);
      const log = await attempts(d.deliveryId);
      expect(log.map((a) => a.outcome)).toEqual(['retry', 'retry', 'dead']);
      for (const a of log) {
        expect(a.response_body).toHaveLength(2048);
        expect(a.response_truncated).toBe(true);
        expect(a.latency_ms).toBeGreaterThanOrEqual(0);
      }
      expect(log[2].next_attempt_at).toBeNull();
      // A dead delivery stays dead.
      await w.runOnce();
      expect(await attempts(d.deliveryId)).toHaveLength(3);

      expect(await deliveries.redrive(tenant(), d.deliveryId)).toEqual([]);
      up = true;
      expect(await deliveries.redrive(t, { subscriptionId: subscription.id })).toEqual([d.deliveryId]);
      expect(await deliveries.redrive(t, d.deliveryId)).toEqual([]); // not dead any more
      const done = await runUntil(w, d.deliveryId, 'succeeded');
      expect(done).toMatchObject({ attempts: 4, attempts_before_redrive: 3, dead_at: null });
      const after = await deliveries.attempts(t, d.deliveryId);
      expect(after?.map((a) => [a.attemptNo, a.outcome])).toEqual([
        [1, 'retry'],
        [2, 'retry'],
        [3, 'dead'],
        [4, 'succeeded'],
      ]);
      expect(await deliveries.attempts(tenant(), d.deliveryId)).toBeUndefined();
    });

    it('counts a timeout as a failure', async () => {
      const t = tenant();
      await subscribe(t, '/slow');
      receiver.on('/slow', () => ({ status: 200, delayMs: 3000 }));
      const [d] = await enqueue(t, 'document.uploaded', {});
      const w = worker({ timeoutMs: 300, leaseMs: 6000, backoffBaseMs: 60_000, backoffMaxMs: 60_000 });
      await w.runOnce();
      const [a] = await attempts(d.deliveryId);
      expect(a).toMatchObject({ outcome: 'retry', http_status: null });
      expect(a.error).toMatch(/^timeout/);
      expect(a.latency_ms).toBeGreaterThanOrEqual(290);
      expect(a.latency_ms).toBeLessThan(2000);
      expect((await delivery(d.deliveryId)).status).toBe('pending');
    });

    it('never follows a redirect: a 3xx is a recorded failure', async () => {
      const t = tenant();
      await subscribe(t, '/moved');
      receiver.on('/moved', () => ({ status: 302, headers: { location: receiver.url('/elsewhere') } }));
      receiver.on('/elsewhere', () => ({ status: 200 }));
      const [d] = await enqueue(t, 'case.status_changed', {});
      await worker({ backoffBaseMs: 60_000 }).runOnce();
      const [a] = await attempts(d.deliveryId);
      expect(a).toMatchObject({ http_status: 302, outcome: 'retry' });
      expect(a.error).toContain('redirect not followed');
      expect(a.error).toContain('/elsewhere');
      expect(receiver.at('/elsewhere')).toHaveLength(0);
    });

    it('checks the target again at delivery, after DNS, and refuses a name now resolving to loopback', async () => {
      const t = tenant();
      const publicDns: HostResolver = async () => [{ address: '93.184.215.14', family: 4 }];
      const rebound: HostResolver = async () => [{ address: '127.0.0.1', family: 4 }];
      const created = new WebhookSubscriptions(pool, schema, { secretBox: box, resolve: publicDns });
      await created.create(t, { url: `https://rebind.example.com:${receiver.port}/rebind` });
      const [d] = await enqueue(t, 'case.status_changed', {});
      const strict = worker({
        policy: publicTargetPolicy('off', 'test'),
        resolve: rebound,
        backoffBaseMs: 60_000,
      });
      await strict.runOnce();
      const [a] = await attempts(d.deliveryId);
      expect(a.error).toContain(PublicTargetRefusal.PRIVATE_ADDRESS);
      expect(a).toMatchObject({ http_status: null, address: null });
      expect(receiver.at('/rebind')).toHaveLength(0);
    });

    it('refuses a stored loopback URL when the worker runs without the allowance', async () => {
      const t = tenant();
      await subscribe(t, '/no-allowance');
      receiver.on('/no-allowance', () => ({ status: 200 }));
      const [d] = await enqueue(t, 'case.status_changed', {});
      await worker({ policy: publicTargetPolicy(undefined, 'test'), backoffBaseMs: 60_000 }).runOnce();
      const [a] = await attempts(d.deliveryId);
      expect(a.error).toContain(PublicTargetRefusal.INSECURE_SCHEME);
      expect(receiver.at('/no-allowance')).toHaveLength(0);
    });

    it('connects to the checked address itself: no second DNS lookup', async () => {
      const t = tenant();
      // `pinned.invalid` never resolves in real DNS (RFC 2606); only the guard's resolver knows it.
      const dns: HostResolver = async () => [{ address: '127.0.0.1', family: 4 }];
      const s = new WebhookSubscriptions(pool, schema, { secretBox: box, policy: loopback, resolve: dns });
      await s.create(t, { url: `http://pinned.invalid:${receiver.port}/pinned` });
      receiver.on('/pinned', () => ({ status: 200 }));
      const [d] = await enqueue(t, 'case.status_changed', {});
      await worker({ resolve: dns }).runOnce();
      const [got] = receiver.at('/pinned');
      expect(got.headers.host).toBe(`pinned.invalid:${receiver.port}`);
      expect((await delivery(d.deliveryId)).status).toBe('succeeded');
    });

    it('two workers racing deliver each delivery exactly once', async () => {
      const t = tenant();
      await subscribe(t, '/race-1');
      await subscribe(t, '/race-2');
      receiver.on('/race-1', () => ({ status: 200, delayMs: 5 }));
      receiver.on('/race-2', () => ({ status: 200, delayMs: 5 }));
      const ids: string[] = [];
      for (let i = 0; i < 40; i++)
        ids.push(...(await enqueue(t, 'case.status_changed', { i })).map((d) => d.deliveryId));
      expect(ids).toHaveLength(80);
      const a = worker({ batchSize: 7 });
      const b = worker({ batchSize: 7 });
      const drain = async (w: WebhookDeliveryWorker) => {
        while ((await w.runOnce()).claimed > 0) {
          /* next round */
        }
      };
      await Promise.all([drain(a), drain(b), drain(a), drain(b)]);
      const got: ReceivedWebhook[] = [...receiver.at('/race-1'), ...receiver.at('/race-2')];
      const seen = got.map((g) => g.headers['x-service-delivery'] as string);
      expect(seen).toHaveLength(80);
      expect(new Set(seen)).toEqual(new Set(ids));
      expect(a.totals.succeeded).toBeGreaterThan(0);
      expect(b.totals.succeeded).toBeGreaterThan(0);
      const { rows } = await pool.query(
        `SELECT status, attempts, count(*)::int AS n FROM ${schema}.webhook_deliveries WHERE tenant_id = $1 GROUP BY 1, 2`,
        [t],
      );
      expect(rows).toEqual([{ status: 'succeeded', attempts: 1, n: 80 }]);
    });

    it("takes over a crashed worker's delivery when its lease expires", async () => {
      const t = tenant();
      await subscribe(t, '/crash');
      receiver.on('/crash', () => ({ status: 200 }));
      const [d] = await enqueue(t, 'case.status_changed', {});
      // As a worker that claimed the row and died leaves it: leased, attempt counted, lease running.
      await pool.query(
        `UPDATE ${schema}.webhook_deliveries SET status = 'delivering', attempts = 1, lease_owner = 'gone:1',
                lease_until = now() + interval '1 hour', next_attempt_at = now() + interval '1 hour' WHERE id = $1`,
        [d.deliveryId],
      );
      const w = worker();
      await w.runOnce();
      expect(await delivery(d.deliveryId)).toMatchObject({ status: 'delivering', lease_owner: 'gone:1' });
      await pool.query(
        `UPDATE ${schema}.webhook_deliveries SET lease_until = now() - interval '1 second',
                next_attempt_at = now() - interval '1 second' WHERE id = $1`,
        [d.deliveryId],
      );
      await w.runOnce();
      expect(await delivery(d.deliveryId)).toMatchObject({
        status: 'succeeded',
        attempts: 2,
        lease_owner: null,
      });
      expect(receiver.at('/crash')).toHaveLength(1);
    });

    it('rotation: both signatures verify during the overlap, only the new one after', async () => {
      const t = tenant();
      const { subscription, secret: oldSecret } = await subscribe(t, '/rotate');
      receiver.on('/rotate', () => ({ status: 200 }));
      const rotated = await subs.rotateSecret(t, subscription.id, { overlapSeconds: 3600 });
      const newSecret = rotated?.secret as string;
      expect(newSecret).not.toBe(oldSecret);
      expect(rotated?.subscription.previousSecretValidUntil?.getTime()).toBeGreaterThan(
        Date.now() + 3500_000,
      );

      await enqueue(t, 'case.status_changed', { phase: 'overlap' });
      await worker().runOnce();
      const [during] = receiver.at('/rotate');
      const sigs = (during.headers['x-service-signature'] as string).split(',');
      expect(sigs).toHaveLength(2);
      const ts = during.headers['x-service-timestamp'];
      expect(sigs[0]).toBe(createHmac('sha256', newSecret).update(`${ts}.${during.body}`).digest('hex'));
      expect(sigs[1]).toBe(createHmac('sha256', oldSecret).update(`${ts}.${during.body}`).digest('hex'));
      expect(verifyWebhookSignature(newSecret, during.headers, during.body).ok).toBe(true);
      expect(verifyWebhookSignature(oldSecret, during.headers, during.body).ok).toBe(true);

      // The overlap ends.
      await pool.query(
        `UPDATE ${schema}.webhook_subscriptions SET previous_secret_expires_at = now() - interval '1 second' WHERE id = $1`,
        [subscription.id],
      );
      expect((await subs.get(t, subscription.id))?.previousSecretValidUntil).toBeNull();
      await enqueue(t, 'case.status_changed', { phase: 'after' });
      await worker().runOnce();
      const after = receiver.at('/rotate')[1];
      expect((after.headers[WebhookHeader.Signature.toLowerCase()] as string).split(',')).toHaveLength(1);
      expect(verifyWebhookSignature(newSecret, after.headers, after.body).ok).toBe(true);
      expect(verifyWebhookSignature(oldSecret, after.headers, after.body)).toEqual({
        ok: false,
        reason: 'signature-mismatch',
      });
    });

    it('deleting a subscription removes its deliveries and their log', async () => {
      const t = tenant();
      const { subscription } = await subscribe(t, '/gone');
      receiver.on('/gone', () => ({ status: 200 }));
      const [d] = await enqueue(t, 'case.status_changed', {});
      await worker().runOnce();
      expect(await subs.delete(t, subscription.id)).toBe(true);
      expect(await delivery(d.deliveryId)).toBeUndefined();
      expect(await attempts(d.deliveryId)).toEqual([]);
    });
  });
});
