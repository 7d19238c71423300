import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { contractFor, violations } from '@platform/messaging';
import { Transactions } from '@platform/persistence';
import { OWNED_SCHEMAS } from '@platform/registry';
import { TenancyAdminService, type OrganizationId } from '@platform/tenancy';
import { createTestDatabase, eventually, listen, request, serviceEnv } from '@platform/testing';
import {
  verifyWebhookSignature,
  WebhookDeliveryWorker,
  WebhookSecretBox,
  WebhookSubscriptions,
} from '@platform/webhooks';
import type { HostResolver } from '@platform/network';
import { createVerificationApp } from '../../src/bootstrap';
import { CaseMoves } from '../../src/cases/case-moves.service';
import { DEV_WEBHOOKS_SECRET_KEY, VerificationConfig } from '../../src/config/verification.config';
import { AppPoolRepository } from '@platform/persistence';
import { webhooksOptions } from '../../src/webhooks/webhook-endpoints.module';

type Env<T = unknown> = { success: boolean; code: number; error: string | null; value: T };
type Endpoint = {
  id: string;
  url: string;
  events: string[];
  enabled: boolean;
  secret?: string;
  previousSecretValidUntil: string | null;
  reason?: string;
};
type Delivery = {
  id: string;
  endpointId: string;
  event: string;
  eventId: string;
  status: string;
  attempts: number;
  nextAttemptAt: string | null;
  lastResponseStatus: number | null;
  attemptLog: {
    attemptNo: number;
    attemptedAt: string;
    outcome: string;
    nextAttemptAt: string | null;
    responseStatus: number | null;
    error: string | null;
  }[];
};
type Received = { path: string; headers: IncomingHttpHeaders; body: string };
type Body = {
  deliveryId: string;
  eventId: string;
  event: string;
  createdAt: string;
  data: Record<string, unknown>;
};

type Reply = { status: number; headers?: Record<string, string> };

/** A loopback receiver (admitted only by WEBHOOKS_ALLOW_PRIVATE_TARGETS=loopback) whose answers the test sets. */
class Receiver {
  readonly received: Received[] = [];
  private readonly replies = new Map<
    string,
    (n: number) => { status: number; headers?: Record<string, string> }
  >();
  private server!: Server;
  port = 0;

  on(path: string, reply: (n: number) => { status: number; headers?: Record<string, string> }) {
    this.replies.set(path, reply);
  }
  at(path: string) {
    return this.received.filter((r) => r.path === path);
  }
  url(path: string) {
    return `http://127.0.0.1:${this.port}${path}`;
  }
  async start() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        this.received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        const reply = this.replies.get(path) ?? ((): Reply => ({ status: 200 }));
        const r = reply(this.at(path).length);
        res.writeHead(r.status, r.headers);
        res.end('ok');
      });
    });
    await new Promise<void>((done) => this.server.listen(0, '127.0.0.1', done));
    this.port = (this.server.address() as AddressInfo).port;
  }
  async stop() {
    this.server.closeAllConnections();
    await new Promise<void>((done) => this.server.close(() => done()));
  }
}

/** The value, or a failed test saying what was missing (instead of a non-null assertion). */
function must<T>(v: T | null | undefined, what = 'value'): T {
  if (v === null || v === undefined) throw new Error(`expected a ${what}`);
  return v;
}

/** The Node snippet of docs/verification/webhooks.md, exactly as published. */
function docSnippet(): string {
  const doc = readFileSync(resolve(__dirname, '../../../../docs/verification/webhooks.md'), 'utf8');
  const m = /<!-- verification-webhook-snippet -->\s*```js\n([\s\S]*?)```/.exec(doc);
  if (!m) throw new Error('the snippet block is missing from docs/verification/webhooks.md');
  return m[1];
}

/** Runs the doc's snippet in a separate `node` on a received delivery; answers what it returned. */
function verifyWithDocSnippet(secrets: string | string[], r: Received, nowSeconds?: number): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'wh-snippet-'));
  try {
    writeFileSync(join(dir, 'verify.js'), docSnippet());
    const run = spawnSync(
      process.execPath,
      [
        '-e',
        `const { verifyServiceWebhook } = require(${JSON.stringify(join(dir, 'verify.js'))});
         const input = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
         const args = [input.secrets, input.headers, Buffer.from(input.body, 'utf8')];
         if (input.now !== null) args.push(input.now);
         process.stdout.write(JSON.stringify(verifyServiceWebhook(...args)));`,
      ],
      {
        input: JSON.stringify({ secrets, headers: r.headers, body: r.body, now: nowSeconds ?? null }),
        encoding: 'utf8',
      },
    );
    if (run.status !== 0) throw new Error(`snippet failed: ${run.stderr}`);
    return JSON.parse(run.stdout) as boolean;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `printf '%s' "$ts.$body" | openssl dgst -sha256 -hmac "$secret"`: the hex digest. */
function opensslHmac(secret: string, timestamp: string, body: string): string {
  const run = spawnSync('openssl', ['dgst', '-sha256', '-hmac', secret], {
    input: `${timestamp}.${body}`,
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`openssl failed: ${run.stderr}`);
  const hex = run.stdout.trim().split(/\s+/).pop() ?? '';
  expect(hex).toMatch(/^[0-9a-f]{64}$/);
  return hex;
}

describe('verification webhooks and event contracts (real PostgreSQL, loopback receiver)', () => {
  let app: INestApplication;
  let strictApp: INestApplication;
  let base: string;
  let strictBase: string;
  let ds: DataSource;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  const receiver = new Receiver();
  const keys: Record<string, string> = {};
  let n = 0;
  /** A delivery received in the first test, reused by the signature proofs. */
  let sample: { received: Received; secret: string } | undefined;

  const settings = {
    WEBHOOKS_WORKER_INTERVAL_MS: '50',
    WEBHOOKS_MAX_ATTEMPTS: '4',
    WEBHOOKS_BACKOFF_BASE_MS: '150',
    WEBHOOKS_BACKOFF_MAX_MS: '600',
  };

  beforeAll(async () => {
    await receiver.start();
    db = await createTestDatabase('verification_webhooks');
    app = await createVerificationApp(
      serviceEnv(db.url, { ...settings, WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'loopback' }),
      false,
    );
    base = await listen(app);
    // A production-like replica of the same service: no loopback allowance, no worker.
    strictApp = await createVerificationApp(serviceEnv(db.url, { WEBHOOKS_WORKER_INTERVAL_MS: '0' }), false);
    strictBase = await listen(strictApp);
    ds = app.get(DataSource);
    const admin = app.get(TenancyAdminService);
    for (const org of ['org-a', 'org-b', 'org-retry', 'org-dns', 'org-rb']) {
      await admin.createOwner(org, org);
      keys[org] = (await admin.issueKey(org, 'all')).token;
    }
    keys.readOnly = (await admin.issueKey('org-a', 'ro', { scopes: ['cases:read', 'cases:write'] })).token;
  });

  afterAll(async () => {
    await strictApp?.close();
    await app?.close();
    await receiver.stop();
    await db?.drop();
  });

  const auth = (org: string, key = keys[org], lang = 'en') => ({
    'X-API-Key': key,
    'Service-Organization-Id': org,
    'Accept-Language': lang,
  });
  const api = <T>(
    org: string,
    method: string,
    path: string,
    body?: unknown,
    opts: { key?: string; lang?: string; at?: string } = {},
  ) =>
    request<Env<T>>(`${opts.at ?? base}/api/v1/${path}`, {
      method,
      headers: auth(org, opts.key ?? keys[org], opts.lang),
      body,
    });
  const subscribe = (org: string, path: string, events: string[], at?: string) =>
    api<Endpoint>(org, 'POST', 'webhook-endpoints', { url: receiver.url(path), events }, { at });
  const createCase = async (org: string) => {
    const res = await request<Env<{ id: string }>>(`${base}/api/v1/verification-cases`, {
      method: 'POST',
      headers: { ...auth(org), 'Idempotency-Key': `wh-${++n}` },
      body: {
        externalReferenceId: `APP-WH-${n}`,
        applicantType: 'Individual',
        applicantCountryCode: 'KZ',
        reportCountryCode: 'KZ',
      },
    });
    expect(res.status).toBe(201);
    return res.body.value.id;
  };
  const cancelCase = async (org: string, id: string) => {
    const res = await request<Env>(`${base}/api/v1/verification-cases/${id}/cancel`, {
      method: 'POST',
      headers: auth(org),
    });
    expect(res.status).toBe(200);
  };
  const bodyOf = (r: Received) => JSON.parse(r.body) as Body;
  const forCase = (path: string, caseId: string) =>
    receiver.at(path).filter((r) => bodyOf(r).data.caseId === caseId);
  const outboxRows = (caseId: string) =>
    ds.query(
      `SELECT id, topic, aggregate_id, tenant_id, payload FROM verification.outbox WHERE aggregate_id = $1 ORDER BY seq`,
      [caseId],
    ) as Promise<
      {
        id: string;
        topic: string;
        aggregate_id: string;
        tenant_id: string;
        payload: Record<string, unknown>;
      }[]
    >;

  it('subscribe -> secret shown once; a case created and cancelled -> two signed case.status_changed deliveries, and two outbox rows with the same event ids', async () => {
    const created = await subscribe('org-a', '/a-cases', ['case.status_changed']);
    expect(created.status).toBe(201);
    const ep = created.body.value;
    expect(ep).toMatchObject({
      url: receiver.url('/a-cases'),
      events: ['case.status_changed'],
      enabled: true,
    });
    expect(ep.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const summaryOnly = (await subscribe('org-a', '/a-summary', ['summary.generated'])).body.value;

    // The secret is never answered again, nor stored in plaintext.
    const listed = await api<{ items: Endpoint[]; total: number }>('org-a', 'GET', 'webhook-endpoints');
    expect(listed.body.value.total).toBe(2);
    expect(JSON.stringify(listed.body)).not.toContain(ep.secret);
    expect(JSON.stringify((await api('org-a', 'GET', `webhook-endpoints/${ep.id}`)).body)).not.toContain(
      ep.secret,
    );
    const [row] = await ds.query('SELECT * FROM verification.webhook_subscriptions WHERE id = $1', [ep.id]);
    expect(JSON.stringify(row)).not.toContain(must(ep.secret).slice(6));

    const caseId = await createCase('org-a');
    await cancelCase('org-a', caseId);
    const got = await eventually(async () =>
      forCase('/a-cases', caseId).length >= 2 ? forCase('/a-cases', caseId) : undefined,
    );
    const bodies = got
      .map(bodyOf)
      .sort((x, y) => (x.data.fromStatus === null ? -1 : y.data.fromStatus === null ? 1 : 0));
    expect(bodies.map((b) => [b.event, b.data.fromStatus, b.data.toStatus])).toEqual([
      ['case.status_changed', null, 'AwaitingApplicant'],
      ['case.status_changed', 'AwaitingApplicant', 'Cancelled'],
    ]);
    for (const r of got) {
      const b = bodyOf(r);
      // The ids are in the signed body and agree with the headers.
      expect(r.headers['x-service-delivery']).toBe(b.deliveryId);
      expect(r.headers['x-service-event']).toBe('case.status_changed');
      expect(r.headers['x-service-timestamp']).toMatch(/^\d{10}$/);
      expect(r.headers['x-service-signature']).toMatch(/^[0-9a-f]{64}$/);
      expect(verifyWebhookSignature(must(ep.secret), r.headers, r.body)).toMatchObject({ ok: true });
      expect(verifyWebhookSignature('whsec_wrong', r.headers, r.body)).toMatchObject({ ok: false });
    }
    sample = { received: got[0], secret: must(ep.secret) };

    // The summary-only endpoint received none of them, and has no delivery for them in its log.
    expect(forCase('/a-summary', caseId)).toEqual([]);
    const log = await api<{ items: Delivery[]; total: number }>(
      'org-a',
      'GET',
      `webhook-endpoints/${summaryOnly.id}/deliveries`,
    );
    expect(log.body.value.total).toBe(0);

    // Kafka: one outbox row per event, in the same transaction, with the webhook's event id.
    const rows = await outboxRows(caseId);
    expect(rows.map((r) => r.topic)).toEqual([
      'verification.case.status-changed.v1',
      'verification.case.status-changed.v1',
    ]);
    expect(rows.map((r) => r.id).sort()).toEqual(bodies.map((b) => b.eventId).sort());
    for (const r of rows) {
      expect(r.tenant_id).toBe('org-a');
      expect(r.payload).toMatchObject({ caseId, organizationId: 'org-a' });
      expect(violations(must(contractFor(r.topic)), r.payload)).toEqual([]);
    }
    // The relay drains verification's outbox.
    expect(OWNED_SCHEMAS).toContain('verification');

    // The delivery log shows both, succeeded with their response status.
    const delivered = await api<{ items: Delivery[]; total: number }>(
      'org-a',
      'GET',
      `webhook-endpoints/${ep.id}/deliveries?status=succeeded`,
    );
    expect(delivered.body.value.items.filter((d) => bodies.some((b) => b.deliveryId === d.id))).toHaveLength(
      2,
    );
    expect(delivered.body.value.items[0]).toMatchObject({
      status: 'succeeded',
      lastResponseStatus: 200,
      nextAttemptAt: null,
    });
  });

  it("the doc's Node snippet (run by node) and openssl dgst -sha256 -hmac verify the same real delivery", () => {
    const { received, secret } = must(sample);
    const ts = received.headers['x-service-timestamp'] as string;
    expect(verifyWithDocSnippet(secret, received)).toBe(true);
    expect(verifyWithDocSnippet(['whsec_other', secret], received)).toBe(true);
    expect(verifyWithDocSnippet('whsec_other', received)).toBe(false);
    expect(
      verifyWithDocSnippet(secret, { ...received, body: received.body.replace('Awaiting', 'Xwaiting') }),
    ).toBe(false);
    // Older than five minutes: refused even though the signature is right; within them: accepted.
    expect(verifyWithDocSnippet(secret, received, Number(ts) + 301)).toBe(false);
    expect(verifyWithDocSnippet(secret, received, Number(ts) + 299)).toBe(true);

    expect(opensslHmac(secret, ts, received.body)).toBe(received.headers['x-service-signature']);
    expect(opensslHmac('whsec_other', ts, received.body)).not.toBe(received.headers['x-service-signature']);
  });

  it('a failing receiver: retries in growing windows recorded in the log, dead after the last attempt, redrive delivers it', async () => {
    const liveWorker = app.get(WebhookDeliveryWorker);
    await liveWorker.stop();
    try {
      let failing = true;
      receiver.on('/retry', () => ({ status: failing ? 500 : 200 }));
      const ep = (await subscribe('org-retry', '/retry', ['case.status_changed'])).body.value;
      const caseId = await createCase('org-retry');
      // The replica's own worker settings, with the jitter pinned to the top of each window.
      const pool = app.get(AppPoolRepository).pool();
      const opts = webhooksOptions(app.get(VerificationConfig), pool);
      if (opts.worker === false) throw new Error('the worker should be on');
      const worker = new WebhookDeliveryWorker(pool, 'verification', {
        ...opts.worker,
        secretBox: new WebhookSecretBox(DEV_WEBHOOKS_SECRET_KEY),
        policy: opts.policy,
        random: () => 0.9999,
      });
      const list = async () =>
        (await api<{ items: Delivery[] }>('org-retry', 'GET', `webhook-endpoints/${ep.id}/deliveries`)).body
          .value.items;
      const [queued] = await list();
      const detail = async () =>
        (await api<Delivery>('org-retry', 'GET', `webhook-endpoints/${ep.id}/deliveries/${queued.id}`)).body
          .value;
      await eventually(
        async () => {
          await worker.runOnce();
          return (await detail()).status === 'dead' ? true : undefined;
        },
        15_000,
        20,
      );

      const dead = await detail();
      expect(dead).toMatchObject({
        status: 'dead',
        attempts: 4,
        lastResponseStatus: 500,
        nextAttemptAt: null,
      });
      expect(dead.attemptLog.map((a) => [a.attemptNo, a.outcome, a.responseStatus])).toEqual([
        [1, 'retry', 500],
        [2, 'retry', 500],
        [3, 'retry', 500],
        [4, 'dead', 500],
      ]);
      // Windows 150, 300, 600 ms (base 150 doubling, max 600): each retry was scheduled later than
      // the one before, and the next attempt did not come before its time.
      const delays = dead.attemptLog
        .slice(0, 3)
        .map((a) => Date.parse(must(a.nextAttemptAt)) - Date.parse(a.attemptedAt));
      expect(delays[0]).toBeGreaterThanOrEqual(149);
      expect(delays[1]).toBeGreaterThanOrEqual(299);
      expect(delays[2]).toBeGreaterThanOrEqual(599);
      expect(delays[0]).toBeLessThan(delays[1]);
      expect(delays[1]).toBeLessThan(delays[2]);
      for (let i = 1; i < 4; i++)
        expect(Date.parse(dead.attemptLog[i].attemptedAt)).toBeGreaterThanOrEqual(
          Date.parse(must(dead.attemptLog[i - 1].nextAttemptAt)) - 5,
        );
      expect(
        (
          await api<{ items: Delivery[] }>(
            'org-retry',
            'GET',
            `webhook-endpoints/${ep.id}/deliveries?status=dead`,
          )
        ).body.value.items.map((d) => d.id),
      ).toEqual([queued.id]);

      // Only a dead delivery can be redriven; this one is.
      failing = false;
      const redriven = await api<{ redriven: string[] }>(
        'org-retry',
        'POST',
        `webhook-endpoints/${ep.id}/deliveries/${queued.id}/redrive`,
      );
      expect([redriven.status, redriven.body.value.redriven]).toEqual([200, [queued.id]]);
      await eventually(
        async () => {
          await worker.runOnce();
          return (await detail()).status === 'succeeded' ? true : undefined;
        },
        10_000,
        20,
      );
      const done = await detail();
      expect(done.attemptLog.map((a) => a.outcome)).toEqual(['retry', 'retry', 'retry', 'dead', 'succeeded']);
      const again = await api<{ reason: string }>(
        'org-retry',
        'POST',
        `webhook-endpoints/${ep.id}/deliveries/${queued.id}/redrive`,
      );
      expect([again.status, again.body.value.reason]).toEqual([409, 'WEBHOOK_DELIVERY_NOT_DEAD']);
      // Same delivery id and the same signed bytes on every attempt.
      const attempts = forCase('/retry', caseId);
      expect(attempts).toHaveLength(5);
      expect(new Set(attempts.map((r) => r.body)).size).toBe(1);
      expect(new Set(attempts.map((r) => r.headers['x-service-delivery']))).toEqual(new Set([queued.id]));
    } finally {
      liveWorker.start();
    }
  });

  it('rotation: the new secret shown once; during the overlap every delivery verifies with either secret, after it with the new one only', async () => {
    const ep = (await subscribe('org-a', '/rotate', ['case.status_changed'])).body.value;
    const rotated = await api<Endpoint>('org-a', 'POST', `webhook-endpoints/${ep.id}/rotate-secret`, {
      overlapSeconds: 3600,
    });
    expect(rotated.status).toBe(200);
    const fresh = must(rotated.body.value.secret);
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(ep.secret);
    expect(Date.parse(must(rotated.body.value.previousSecretValidUntil))).toBeGreaterThan(
      Date.now() + 3500_000,
    );

    const during = await api<{ deliveryId: string }>('org-a', 'POST', `webhook-endpoints/${ep.id}/test`);
    expect(during.status).toBe(202);
    const d1 = await eventually(async () =>
      receiver.at('/rotate').find((r) => bodyOf(r).deliveryId === during.body.value.deliveryId),
    );
    expect(bodyOf(d1)).toMatchObject({ event: 'ping', data: { endpointId: ep.id } });
    expect((d1.headers['x-service-signature'] as string).split(',')).toHaveLength(2);
    expect(verifyWebhookSignature(fresh, d1.headers, d1.body).ok).toBe(true);
    expect(verifyWebhookSignature(must(ep.secret), d1.headers, d1.body).ok).toBe(true);
    expect(verifyWithDocSnippet(must(ep.secret), d1)).toBe(true);
    expect(verifyWithDocSnippet(fresh, d1)).toBe(true);

    const now = (
      await api<Endpoint>('org-a', 'POST', `webhook-endpoints/${ep.id}/rotate-secret`, { overlapSeconds: 0 })
    ).body.value;
    const after = await api<{ deliveryId: string }>('org-a', 'POST', `webhook-endpoints/${ep.id}/test`);
    const d2 = await eventually(async () =>
      receiver.at('/rotate').find((r) => bodyOf(r).deliveryId === after.body.value.deliveryId),
    );
    expect((d2.headers['x-service-signature'] as string).split(',')).toHaveLength(1);
    expect(verifyWebhookSignature(must(now.secret), d2.headers, d2.body).ok).toBe(true);
    expect(verifyWebhookSignature(fresh, d2.headers, d2.body).ok).toBe(false);
  });

  it('pause and resume: a paused endpoint gets no delivery for events meanwhile; URL and events can change', async () => {
    const ep = (await subscribe('org-b', '/pause', ['case.status_changed'])).body.value;
    const paused = await api<Endpoint>('org-b', 'PATCH', `webhook-endpoints/${ep.id}`, { enabled: false });
    expect(paused.body.value.enabled).toBe(false);
    const quiet = await createCase('org-b');
    await api('org-b', 'PATCH', `webhook-endpoints/${ep.id}`, {
      enabled: true,
      url: receiver.url('/resumed'),
    });
    const loud = await createCase('org-b');
    await eventually(async () => (forCase('/resumed', loud).length ? true : undefined));
    expect([...forCase('/pause', quiet), ...forCase('/resumed', quiet)]).toEqual([]);
    const refused = await api<{ reason: string }>('org-b', 'PATCH', `webhook-endpoints/${ep.id}`, {
      url: 'https://10.1.2.3/x',
    });
    expect([refused.status, refused.body.value.reason]).toEqual([422, 'WEBHOOK_URL_PRIVATE_ADDRESS']);
    const badEvent = await api('org-b', 'PATCH', `webhook-endpoints/${ep.id}`, { events: ['case.deleted'] });
    expect(badEvent.status).toBe(400);
    const narrowed = await api<Endpoint>('org-b', 'PATCH', `webhook-endpoints/${ep.id}`, {
      events: ['summary.generated'],
    });
    expect(narrowed.body.value.events).toEqual(['summary.generated']);
  });

  it('never follows a redirect: a 3xx is a failed attempt logged with its Location', async () => {
    receiver.on('/redirect', () => ({
      status: 302,
      headers: { location: 'http://169.254.169.254/latest/meta-data' },
    }));
    const ep = (await subscribe('org-b', '/redirect', ['summary.generated'])).body.value;
    const ping = await api<{ deliveryId: string }>('org-b', 'POST', `webhook-endpoints/${ep.id}/test`);
    const detail = await eventually(async () => {
      const d = (
        await api<Delivery>(
          'org-b',
          'GET',
          `webhook-endpoints/${ep.id}/deliveries/${ping.body.value.deliveryId}`,
        )
      ).body.value;
      return d.attemptLog.length ? d : undefined;
    });
    expect(detail.attemptLog[0]).toMatchObject({ outcome: 'retry', responseStatus: 302 });
    expect(detail.attemptLog[0].error).toBe(
      'redirect not followed (Location: http://169.254.169.254/latest/meta-data)',
    );
    // Retried later (the live worker may already be at it): not succeeded, and never sent elsewhere.
    expect(['pending', 'delivering']).toContain(detail.status);
    expect(detail.lastResponseStatus).toBe(302);
    expect(receiver.at('/latest/meta-data')).toEqual([]);
    await api('org-b', 'DELETE', `webhook-endpoints/${ep.id}`);
  });

  it('SSRF: private, loopback, link-local, metadata, CGNAT, ULA, plain http and credentials are refused at subscription with a localised 422', async () => {
    const vectors: [string, string][] = [
      ['https://10.0.0.1/hook', 'WEBHOOK_URL_PRIVATE_ADDRESS'],
      ['https://172.16.0.1/hook', 'WEBHOOK_URL_PRIVATE_ADDRESS'],
      ['https://192.168.1.1/hook', 'WEBHOOK_URL_PRIVATE_ADDRESS'],
      ['https://127.0.0.1/hook', 'WEBHOOK_URL_PRIVATE_ADDRESS'],
      ['https://localhost/hook', 'WEBHOOK_URL_PRIVATE_ADDRESS'],
      ['https://169.254.169.254/latest/meta-data', 'WEBHOOK_URL_PRIVATE_ADDRESS'],
      ['https://100.64.0.1/hook', 'WEBHOOK_URL_PRIVATE_ADDRESS'],
      ['https://[fc00::1]/hook', 'WEBHOOK_URL_PRIVATE_ADDRESS'],
      ['https://[fe80::1]/hook', 'WEBHOOK_URL_PRIVATE_ADDRESS'],
      ['https://[::ffff:10.0.0.1]/hook', 'WEBHOOK_URL_PRIVATE_ADDRESS'],
      ['https://2130706433/hook', 'WEBHOOK_URL_PRIVATE_ADDRESS'],
      ['http://hooks.example.com/hook', 'WEBHOOK_URL_INSECURE_SCHEME'],
      ['ftp://hooks.example.com/hook', 'WEBHOOK_URL_INSECURE_SCHEME'],
      ['https://user:pass@hooks.example.com/hook', 'WEBHOOK_URL_INVALID'],
      ['not a url', 'WEBHOOK_URL_INVALID'],
    ];
    // The production-like replica: no loopback allowance.
    for (const [url, reason] of vectors) {
      const res = await api<{ reason: string }>(
        'org-a',
        'POST',
        'webhook-endpoints',
        { url, events: ['case.status_changed'] },
        { at: strictBase },
      );
      expect([url, res.status, res.body.value.reason]).toEqual([url, 422, reason]);
    }
    // Localised: the reason stays, the text follows Accept-Language.
    const ru = await api<{ reason: string }>(
      'org-a',
      'POST',
      'webhook-endpoints',
      { url: 'https://169.254.169.254/', events: ['case.status_changed'] },
      { at: strictBase, lang: 'ru' },
    );
    expect(ru.body.error).toContain('169.254.169.254');
    expect(ru.body.error).toMatch(/публичные/);
    // Even with the loopback allowance only loopback opens, and plain http only to loopback.
    for (const url of ['https://10.0.0.1/hook', 'http://192.168.1.1/hook', 'http://169.254.169.254/']) {
      const res = await api<{ reason: string }>('org-a', 'POST', 'webhook-endpoints', {
        url,
        events: ['case.status_changed'],
      });
      expect([url, res.status]).toEqual([url, 422]);
    }
    const stored = await ds.query(
      `SELECT url FROM verification.webhook_subscriptions WHERE url NOT LIKE 'http://127.0.0.1:%'`,
    );
    expect(stored).toEqual([]);
  });

  it('SSRF at delivery: a name that resolved to a public address at subscription and to a private one at delivery is refused after DNS', async () => {
    const pool = app.get(AppPoolRepository).pool();
    const box = new WebhookSecretBox(DEV_WEBHOOKS_SECRET_KEY);
    let answer = '93.184.216.34';
    const dns: HostResolver = async () => [{ address: answer, family: 4 }];
    const subs = new WebhookSubscriptions(pool, 'verification', { secretBox: box, resolve: dns });
    const { subscription } = await subs.create('org-dns', {
      url: 'https://hooks.partner.example/in',
      eventTypes: ['case.status_changed'],
    });
    const liveWorker = app.get(WebhookDeliveryWorker);
    await liveWorker.stop();
    try {
      answer = '10.0.0.5';
      await createCase('org-dns');
      const opts = webhooksOptions(app.get(VerificationConfig), pool);
      if (opts.worker === false) throw new Error('the worker should be on');
      // A replica with the production policy (no allowance), resolving through the injected DNS.
      const worker = new WebhookDeliveryWorker(pool, 'verification', {
        ...opts.worker,
        secretBox: box,
        resolve: dns,
      });
      expect((await worker.runOnce()).retrying).toBeGreaterThanOrEqual(1);
      const [delivery] = (
        await api<{ items: Delivery[] }>('org-dns', 'GET', `webhook-endpoints/${subscription.id}/deliveries`)
      ).body.value.items;
      const detail = (
        await api<Delivery>(
          'org-dns',
          'GET',
          `webhook-endpoints/${subscription.id}/deliveries/${delivery.id}`,
        )
      ).body.value;
      expect(detail.attemptLog[0]).toMatchObject({ outcome: 'retry', responseStatus: null });
      expect(detail.attemptLog[0].error).toMatch(
        /^WEBHOOK_URL_PRIVATE_ADDRESS: host hooks\.partner\.example resolves to 10\.0\.0\.5/,
      );
      // DNS rebinding to loopback, where a receiver does listen: still refused, nothing sent.
      answer = '127.0.0.1';
      await ds.query(`UPDATE verification.webhook_deliveries SET next_attempt_at = now() WHERE id = $1`, [
        delivery.id,
      ]);
      const before = receiver.received.length;
      await worker.runOnce();
      const second = (
        await api<Delivery>(
          'org-dns',
          'GET',
          `webhook-endpoints/${subscription.id}/deliveries/${delivery.id}`,
        )
      ).body.value;
      expect(second.attemptLog[1].error).toMatch(/resolves to 127\.0\.0\.1 \(loopback\)/);
      expect(receiver.received.length).toBe(before);
    } finally {
      await api('org-dns', 'DELETE', `webhook-endpoints/${subscription.id}`);
      liveWorker.start();
    }
  });

  it("another organization's endpoint answers 404 like an unknown one; settings:manage is required", async () => {
    const ep = (await subscribe('org-a', '/private-to-a', ['summary.generated'])).body.value;
    const probes: [string, string, unknown?][] = [
      ['GET', `webhook-endpoints/${ep.id}`],
      ['PATCH', `webhook-endpoints/${ep.id}`, { enabled: false }],
      ['POST', `webhook-endpoints/${ep.id}/rotate-secret`, {}],
      ['POST', `webhook-endpoints/${ep.id}/test`],
      ['GET', `webhook-endpoints/${ep.id}/deliveries`],
      ['POST', `webhook-endpoints/${ep.id}/deliveries/redrive`],
      ['DELETE', `webhook-endpoints/${ep.id}`],
    ];
    for (const [method, path, body] of probes) {
      const other = await api<{ reason: string }>('org-b', method, path, body);
      const unknown = await api<{ reason: string }>(
        'org-b',
        method,
        path.replace(ep.id, '00000000-0000-4000-8000-000000000000'),
        body,
      );
      expect([method, path, other.status, other.body.value.reason]).toEqual([
        method,
        path,
        404,
        'WEBHOOK_ENDPOINT_NOT_FOUND',
      ]);
      expect(unknown.status).toBe(404);
    }
    expect((await api('org-a', 'GET', 'webhook-endpoints/not-a-uuid')).status).toBe(404);
    expect(
      (
        await api(
          'org-a',
          'GET',
          `webhook-endpoints/${ep.id}/deliveries/00000000-0000-4000-8000-000000000000`,
        )
      ).status,
    ).toBe(404);
    expect(
      (await api<{ items: Endpoint[] }>('org-b', 'GET', 'webhook-endpoints')).body.value.items.map(
        (e) => e.id,
      ),
    ).not.toContain(ep.id);
    // Still there and unchanged for its owner.
    expect((await api<Endpoint>('org-a', 'GET', `webhook-endpoints/${ep.id}`)).body.value.enabled).toBe(true);
    expect((await api('org-a', 'GET', 'webhook-endpoints', undefined, { key: keys.readOnly })).status).toBe(
      403,
    );
    expect((await api('org-a', 'DELETE', `webhook-endpoints/${ep.id}`)).status).toBe(200);
    expect((await api('org-a', 'GET', `webhook-endpoints/${ep.id}`)).status).toBe(404);
  });

  it('a rolled-back move leaves neither its outbox row nor its webhook deliveries', async () => {
    await subscribe('org-rb', '/rb', ['case.status_changed']);
    const caseId = await createCase('org-rb');
    const org = 'org-rb' as OrganizationId;
    const count = async () => ({
      outbox: (await outboxRows(caseId)).length,
      deliveries: Number(
        (
          await ds.query(
            `SELECT count(*)::int AS n FROM verification.webhook_deliveries WHERE tenant_id = $1 AND payload->>'caseId' = $2`,
            [org, caseId],
          )
        )[0].n,
      ),
    });
    expect(await count()).toEqual({ outbox: 1, deliveries: 1 });
    const moves = app.get(CaseMoves);
    await expect(
      app.get(Transactions).run(async (tx) => {
        const c = await moves.lock(tx, org, caseId);
        await moves.move(tx, org, c, 'Cancelled');
        throw new Error('the business step after the move failed');
      }),
    ).rejects.toThrow('failed');
    expect(await count()).toEqual({ outbox: 1, deliveries: 1 });
    await cancelCase('org-rb', caseId);
    expect(await count()).toEqual({ outbox: 2, deliveries: 2 });
  });
});
