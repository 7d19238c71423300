import { resolve } from 'node:path';
import { launchSystem, runAdmin, type RunningSystem } from '@platform/dev-infra';
import {
  createTestDatabase,
  rawRequest,
  request,
  spawnTsProcess,
  withClient,
  type JsonLineProcess,
} from '@platform/testing';
import { GATEWAY, SERVICES } from '@platform/registry';

const DIST = resolve(__dirname, '../../../../dist');

type Env<T = unknown> = { success: boolean; code: number; error: string | null; value: T };

/**
 * The walking skeleton, end to end and the way a partner sees it: six apps as separate processes from
 * the build, one real PostgreSQL, one Kafka-protocol broker, calls through the gateway only, and a
 * consumer in yet another process.
 */
describe('walking skeleton through the gateway', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let system: RunningSystem;
  let consumer: JsonLineProcess;
  let gw: string;
  let calendar: { accountId: string; productId: string; apiKey: string };
  let lending: { organizationId: string; apiKey: string };
  let verification: { organizationId: string; apiKey: string };
  let env: { DATABASE_URL: string; KAFKA_BROKERS: string; NODE_ENV: string };

  beforeAll(async () => {
    db = await createTestDatabase('e2e_skeleton');
    env = {
      DATABASE_URL: db.url,
      KAFKA_BROKERS: process.env.KAFKA_BROKERS as string,
      NODE_ENV: 'test',
    };
    system = await launchSystem({
      distDir: DIST,
      databaseUrl: db.url,
      kafkaBrokers: env.KAFKA_BROKERS,
      ports: 'free',
      nodeEnv: 'test',
      env: { KAFKA_CONSUMER_MAX_WAIT_MS: '100', RELAY_POLL_INTERVAL_MS: '200', LOG_LEVEL: 'warn' },
    });
    gw = system.gatewayUrl;
    calendar = runAdmin(DIST, 'calendar', ['seed-demo'], env) as typeof calendar;
    lending = runAdmin(DIST, 'lending', ['seed-demo'], env) as typeof lending;
    verification = runAdmin(DIST, 'verification', ['seed-demo'], env) as typeof verification;
    runAdmin(DIST, 'public-status', ['seed-demo'], env);
    consumer = spawnTsProcess('libs/testing/src/fixtures/inbox-consumer.main.ts', {
      ...env,
      CONSUMER_SCHEMA: 'skeleton_consumer',
      KAFKA_CONSUMER_MAX_WAIT_MS: '100',
      KAFKA_SESSION_TIMEOUT_MS: '6000',
    });
    await consumer.waitForLine((l) => l.ready === true, 60000);
  }, 180000);

  afterAll(async () => {
    await consumer?.stop();
    await system?.stop();
    await db?.drop();
  });

  it.each(SERVICES.filter((s) => s.name !== GATEWAY.name).map((s) => s.name))(
    'gateway reaches %s health: live and ready (database + broker) in the envelope',
    async (service) => {
      const live = await request<Env<{ service: string; status: string }>>(`${gw}/health/${service}/live`);
      expect(live.status).toBe(200);
      expect(live.body).toEqual({ success: true, code: 200, error: null, value: { service, status: 'up' } });
      const ready = await request<Env<{ status: string; checks: Record<string, { status: string }> }>>(
        `${gw}/health/${service}/ready`,
      );
      expect(ready.status).toBe(200);
      expect(ready.body.value.status).toBe('up');
      expect(Object.keys(ready.body.value.checks).sort()).toEqual(['broker', 'database']);
    },
  );

  it('gateway answers its own health', async () => {
    const ready = await request<Env<{ service: string; status: string }>>(`${gw}/health/ready`);
    expect(ready.body).toMatchObject({ success: true, value: { service: 'gateway', status: 'up' } });
  });

  it('an upsert through the gateway reaches a consumer in another process exactly once; a redelivery is deduplicated', async () => {
    const res = await request<Env<{ id: string; version: number }>>(`${gw}/Calendar/upsert`, {
      headers: {
        API_KEY: calendar.apiKey,
        AccountId: calendar.accountId,
        ProductId: calendar.productId,
        'Language-Code': 'en',
      },
      body: {
        entity_type: 'meeting',
        entity_id: 'M-1',
        title: 'Walking skeleton',
        start: { date_time: '2026-12-01T09:00:00Z' },
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ success: true, code: 201, value: { version: 1 } });
    const calendarEventId = res.body.value.id;

    const outbox = await withClient(db.url, (c) =>
      c.query(`SELECT id, sent_at FROM calendar.outbox WHERE aggregate_id = $1`, [calendarEventId]),
    );
    expect(outbox.rows).toHaveLength(1);
    const eventId = outbox.rows[0].id as string;

    const first = await consumer.waitForLine((l) => l.eventId === eventId);
    expect(first.duplicate).toBe(false);

    // Force a redelivery: the relay publishes the same event (same event id) again.
    await withClient(db.url, (c) =>
      c.query(`UPDATE calendar.outbox SET sent_at = NULL WHERE id = $1`, [eventId]),
    );
    const second = await consumer.waitForLine((l) => l.eventId === eventId && l.duplicate === true);
    expect(second.duplicate).toBe(true);

    const effects = await withClient(db.url, (c) =>
      c.query(`SELECT event_id, version FROM skeleton_consumer.effects WHERE calendar_event_id = $1`, [
        calendarEventId,
      ]),
    );
    expect(effects.rows).toEqual([{ event_id: eventId, version: 1 }]);
    expect(consumer.lines.filter((l) => l.eventId === eventId && l.duplicate === false)).toHaveLength(1);
  });

  it('every service answers a partner call through the gateway with its seeded demo credentials', async () => {
    const apps = await request<Env<{ items: unknown[]; total: number }>>(
      `${gw}/Applications/GetApplications?Offset=0&Count=10`,
      {
        headers: { 'X-Api-Key': lending.apiKey, 'Organization-Id': lending.organizationId },
      },
    );
    expect(apps.status).toBe(200);
    expect(apps.body).toEqual({ success: true, code: 200, error: null, value: { items: [], total: 0 } });

    const cases = await request<Env<{ total: number }>>(
      `${gw}/api/v1/verification-cases?externalReferenceId=APP-1`,
      {
        headers: { 'X-API-Key': verification.apiKey, 'Service-Organization-Id': verification.organizationId },
      },
    );
    expect(cases.status).toBe(200);
    expect(cases.body.value.total).toBe(0);

    const products = await request<Env<{ items: { id: string }[]; total: number }>>(
      `${gw}/PublicStatus/Products`,
    );
    expect(products.status).toBe(200);
    expect(products.body.value.total).toBe(3);
    expect(products.body.value.items.map((p) => p.id).sort()).toEqual([
      'calendar',
      'lending',
      'verification',
    ]);
  });

  it("npm start's CalDAV demo connects through the gateway: its calendar lists the demo product event, read-only; its feed serves it", async () => {
    type CaldavDemo = {
      username: string;
      password: string;
      calendarPath: string;
      productEventHref: string;
      icsPath: string;
    };
    // What scripts/start.ts writes as the `caldav` and `ics` entries of .local/demo-credentials.json.
    const demo = runAdmin(DIST, 'calendar', ['seed-demo-caldav'], env) as CaldavDemo;
    const basic = (d: CaldavDemo) => `Basic ${Buffer.from(`${d.username}:${d.password}`).toString('base64')}`;

    const discovery = await rawRequest(`${gw}/.well-known/caldav`, { method: 'PROPFIND' });
    expect(discovery.status).toBe(301);
    expect(discovery.headers.location).toBe('/dav/');

    const listing = await rawRequest(`${gw}${demo.calendarPath}`, {
      method: 'PROPFIND',
      headers: { Authorization: basic(demo), Depth: '1', 'content-type': 'application/xml' },
      body: '<d:propfind xmlns:d="DAV:"><d:prop><d:getetag/><d:current-user-privilege-set/></d:prop></d:propfind>',
    });
    expect(listing.status).toBe(207);
    const listed = [...listing.text.matchAll(/<d:href>([^<]*)<\/d:href>/g)].map((m) => m[1]);
    expect(listed).toContain(demo.calendarPath);
    expect(listed).toContain(demo.productEventHref);

    const event = await rawRequest(`${gw}${demo.productEventHref}`, {
      headers: { Authorization: basic(demo) },
    });
    expect(event.status).toBe(200);
    const put = await rawRequest(`${gw}${demo.productEventHref}`, {
      method: 'PUT',
      headers: { Authorization: basic(demo), 'content-type': 'text/calendar' },
      body: [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//e2e//EN',
        'BEGIN:VEVENT',
        'UID:hijack',
        'DTSTAMP:20260101T000000Z',
        'DTSTART:20261201T100000Z',
        'SUMMARY:Hijacked',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
    });
    expect(put.status).toBe(403);
    expect(put.text).toContain('<d:need-privileges>');
    expect(put.text).toContain('CALDAV_PRODUCT_EVENT_READ_ONLY');
    const after = await rawRequest(`${gw}${demo.productEventHref}`, {
      headers: { Authorization: basic(demo) },
    });
    expect(after.headers.etag).toBe(event.headers.etag);
    expect(after.text).toBe(event.text);

    const feed = await rawRequest(`${gw}${demo.icsPath}`);
    expect(feed.status).toBe(200);
    expect(String(feed.headers['content-type'])).toMatch(/^text\/calendar/);
    expect(feed.text).toContain('SUMMARY:Demo CRM: call with a client');

    // A restart's re-seed keeps the event and replaces the demo's app password: the old one is revoked.
    const again = runAdmin(DIST, 'calendar', ['seed-demo-caldav'], env) as CaldavDemo;
    expect(again.productEventHref).toBe(demo.productEventHref);
    expect(again.username).not.toBe(demo.username);
    const probe = (d: CaldavDemo) =>
      rawRequest(`${gw}${d.calendarPath}`, {
        method: 'PROPFIND',
        headers: { Authorization: basic(d), Depth: '0' },
      });
    expect((await probe(demo)).status).toBe(401);
    expect((await probe(again)).status).toBe(207);
    expect((await rawRequest(`${gw}${demo.icsPath}`)).status).toBe(404);
  });

  it('a partner mistake gets a localised envelope error through the gateway, never a 500', async () => {
    const res = await request<Env<{ reason: string }>>(`${gw}/Applications/GetApplications?Count=100000`, {
      headers: { 'X-Api-Key': lending.apiKey, 'Organization-Id': 'someone-else', 'Language-Code': 'uz' },
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, code: 403, value: { reason: 'TENANT_MISMATCH' } });
    expect(res.body.error).toBe('Kalit ushbu Organization-Id ga tegishli emas.');
  });
});
