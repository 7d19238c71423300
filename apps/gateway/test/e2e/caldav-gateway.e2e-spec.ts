import { request as httpRequest } from 'node:http';
import { resolve } from 'node:path';
import { SignJWT, exportSPKI, generateKeyPair } from 'jose';
import { launchSystem, runAdmin, type RunningSystem } from '@platform/dev-infra';
import { createTestDatabase, rawRequest, request } from '@platform/testing';

const DIST = resolve(__dirname, '../../../../dist');

type Env<T = Record<string, unknown>> = { success: boolean; value: T };

const event = (uid: string, summary: string) =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//e2e//EN',
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20261101T000000Z',
    'DTSTART:20261215T090000Z',
    'DTEND:20261215T100000Z',
    'RRULE:FREQ=DAILY;COUNT=5',
    `SUMMARY:${summary}`,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');

/**
 * CalDAV as a desktop client meets it: through the gateway (WebDAV methods, XML and iCalendar bodies,
 * conditional headers passed through), against the built apps, signing in with an app password.
 */
describe('CalDAV through the gateway', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let system: RunningSystem;
  let gw: string;
  let auth: string;
  let account: string;
  let cal: string;
  let sessionToken: string;

  const dav = (method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
    rawRequest(`${gw}${path}`, {
      method,
      headers: {
        Authorization: auth,
        ...(body !== undefined
          ? { 'content-type': method === 'PUT' ? 'text/calendar' : 'application/xml' }
          : {}),
        ...headers,
      },
      ...(body !== undefined ? { body } : {}),
    });

  beforeAll(async () => {
    db = await createTestDatabase('e2e_caldav');
    const pair = await generateKeyPair('RS256');
    const env = {
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
      env: { LOG_LEVEL: 'warn' },
      appEnv: {
        calendar: {
          SESSION_PUBLIC_KEY_PEM: await exportSPKI(pair.publicKey),
          SESSION_ISSUER: 'https://id.test',
        },
      },
    });
    gw = system.gatewayUrl;
    account = (runAdmin(DIST, 'calendar', ['seed-demo'], env) as { accountId: string }).accountId;
    const session = await new SignJWT({ account_id: account, roles: [] })
      .setProtectedHeader({ alg: 'RS256' })
      .setSubject('e2e-person')
      .setIssuer('https://id.test')
      .setAudience('calendar')
      .setExpirationTime('30m')
      .sign(pair.privateKey);
    const created = await request<Env<{ username: string; password: string }>>(
      `${gw}/Calendar/app-passwords`,
      {
        headers: { PlatformSession: session },
        body: { label: 'e2e' },
      },
    );
    expect(created.status).toBe(201);
    sessionToken = session;
    auth = `Basic ${Buffer.from(`${created.body.value.username}:${created.body.value.password}`).toString('base64')}`;
    cal = `/dav/calendars/${encodeURIComponent(account)}/e2e-person/default/`;
  }, 180000);

  afterAll(async () => {
    await system?.stop();
    await db?.drop();
  });

  it('discovers the server from /.well-known/caldav and OPTIONS', async () => {
    const wk = await rawRequest(`${gw}/.well-known/caldav`, { method: 'PROPFIND', headers: { Depth: '0' } });
    expect(wk.status).toBe(301);
    expect(wk.headers.location).toBe('/dav/');
    const opt = await rawRequest(`${gw}/dav/`, { method: 'OPTIONS' });
    expect(opt.status).toBe(200);
    expect(String(opt.headers.dav)).toContain('calendar-access');
    const root = await dav(
      'PROPFIND',
      '/dav/',
      '<d:propfind xmlns:d="DAV:"><d:prop><d:current-user-principal/></d:prop></d:propfind>',
      { Depth: '0' },
    );
    expect(root.status).toBe(207);
    expect(root.text).toContain(`/dav/principals/${encodeURIComponent(account)}/e2e-person/`);
  });

  it('writes, queries and conditionally reads an event, and refuses a stale write with 412', async () => {
    expect(
      (await dav('PUT', `${cal}daily.ics`, event('daily-1', 'Daily'), { 'If-None-Match': '*' })).status,
    ).toBe(201);
    const report = await dav(
      'REPORT',
      cal,
      `<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/></d:prop>
        <c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT">
        <c:time-range start="20261218T000000Z" end="20261219T000000Z"/></c:comp-filter></c:comp-filter></c:filter>
      </c:calendar-query>`,
      { Depth: '1' },
    );
    expect(report.status).toBe(207);
    expect(report.text).toContain(`${cal}daily.ics`);
    const got = await dav('GET', `${cal}daily.ics`);
    expect(got.status).toBe(200);
    expect(got.headers.etag).toBe('"1"');
    expect((await dav('GET', `${cal}daily.ics`, undefined, { 'If-None-Match': '"1"' })).status).toBe(304);
    const stale = await dav('PUT', `${cal}daily.ics`, event('daily-1', 'Renamed'), { 'If-Match': '"9"' });
    expect(stale.status).toBe(412);
    expect(stale.text).toContain('<d:error');
    expect((await dav('DELETE', `${cal}daily.ics`, undefined, { 'If-Match': '"1"' })).status).toBe(204);
    expect((await dav('GET', `${cal}daily.ics`)).status).toBe(404);
  });

  it('makes a calendar with MKCALENDAR through the gateway', async () => {
    const home = `/dav/calendars/${encodeURIComponent(account)}/e2e-person/`;
    const made = await dav(
      'MKCALENDAR',
      `${home}team/`,
      '<c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop><d:displayname>Team</d:displayname></d:prop></d:set></c:mkcalendar>',
    );
    expect(made.status).toBe(201);
    const listing = await dav('PROPFIND', home, undefined, { Depth: '1' });
    expect(listing.status).toBe(207);
    expect(listing.text).toContain(`${home}team/`);
  });

  it('answers large bodies it refuses or reads with their own status, never a 502 (the upload is read first)', async () => {
    const big = `<d:propfind xmlns:d="DAV:"><d:prop><d:displayname>${'x'.repeat(900 * 1024)}</d:displayname></d:prop></d:propfind>`;
    const siblings = `<d:propfind xmlns:d="DAV:"><d:prop>${'<d:displayname/>'.repeat(30_000)}</d:prop></d:propfind>`;
    for (let round = 0; round < 3; round++) {
      for (const body of [big, siblings]) {
        const anonymous = await rawRequest(`${gw}${cal}`, {
          method: 'PROPFIND',
          headers: { Depth: '0', 'content-type': 'application/xml' },
          body,
        });
        expect(anonymous.status).toBe(401);
        const signedIn = await dav('PROPFIND', cal, body, { Depth: '0' });
        expect([207, 400]).toContain(signedIn.status);
      }
    }
  });

  it('answers a refusal made before a slow upload ended once the upload is read: 401, not a reset or a 502', async () => {
    const body = Buffer.from(
      `<d:propfind xmlns:d="DAV:"><d:prop><d:displayname>${'x'.repeat(900 * 1024)}</d:displayname></d:prop></d:propfind>`,
    );
    const status = await new Promise<number>((resolveStatus, reject) => {
      const u = new URL(`${gw}${cal}`);
      const req = httpRequest(
        {
          hostname: u.hostname,
          port: u.port,
          path: u.pathname,
          method: 'PROPFIND',
          agent: false,
          headers: { Depth: '0', 'content-type': 'application/xml', 'content-length': String(body.length) },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolveStatus(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      let at = 0;
      const next = () => {
        if (at >= body.length) return void req.end();
        req.write(body.subarray(at, (at += 64 * 1024)));
        setTimeout(next, 25);
      };
      next();
    });
    expect(status).toBe(401);
  });

  it("answers a feed reader's If-None-Match with 304 through the gateway", async () => {
    const feed = await request<Env<{ url: string }>>(`${gw}/Calendar/ics-feeds`, {
      headers: { PlatformSession: sessionToken },
      body: { view: 'person' },
    });
    expect(feed.status).toBe(201);
    const path = new URL(feed.body.value.url).pathname;
    const first = await rawRequest(`${gw}${path}`);
    expect(first.status).toBe(200);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"/);
    const again = await rawRequest(`${gw}${path}`, { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.etag).toBe(etag);
  });
});
