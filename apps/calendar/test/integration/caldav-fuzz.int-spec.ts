import {
  davRouteCases,
  rawRequest,
  readRouteManifest,
  request,
  runFuzz,
  type FuzzReport,
} from '@platform/testing';
import { startCalendar, type CalendarFixture } from './calendar-fixture';
import { ics } from './ical-samples';

type Env<T = Record<string, unknown>> = { success: boolean; value: T };

const isDavRoute = (path: string) => path === '/.well-known/caldav' || /^\/dav(\/|$)/.test(path);

/**
 * The fuzz harness on the CalDAV routes of the calendar's manifest (docs/routes/calendar.json), on the
 * app's own port: hostile XML on PROPFIND, REPORT, MKCALENDAR and PROPPATCH and hostile iCalendar on PUT
 * (libs/testing/src/fuzz/dav-cases.ts), each with a person's app password and without. Never a 5xx or a
 * hang; every refusal a DAV:error with its coded reason and the request id (the envelope only for what
 * answers before a route runs). The calendar holds an endless minutely series first, so a query over
 * the whole of time has something to expand.
 */
describe('CalDAV routes under the fuzz harness (real PostgreSQL)', () => {
  let f: CalendarFixture;
  let report: FuzzReport;
  let authorization: string;
  let productHref: string;
  const home = '/dav/calendars/acme/fuzz-dav/';
  const cal = `${home}default/`;

  const get = (path: string) => rawRequest(`${f.base}${path}`, { headers: { Authorization: authorization } });

  beforeAll(async () => {
    f = await startCalendar('calendar_caldav_fuzz', { CALENDAR_WRITE_LIMIT: '1000000' });
    const pw = await request<Env<{ username: string; password: string }>>(
      `${f.base}/Calendar/app-passwords`,
      {
        headers: { PlatformSession: await f.session('fuzz-dav') },
        body: { label: 'fuzz' },
      },
    );
    expect(pw.status).toBe(201);
    authorization = `Basic ${Buffer.from(`${pw.body.value.username}:${pw.body.value.password}`).toString('base64')}`;
    const crm = await f.product('crm', ['Push', 'Read']);
    const up = await request<Env<{ id: string }>>(`${f.base}/Calendar/upsert`, {
      headers: { API_KEY: crm, AccountId: 'acme', ProductId: 'crm' },
      body: {
        entity_type: 'deal',
        entity_id: 'D-FUZZ',
        title: 'Contract signing',
        start: { date_time: '2026-12-10T09:00:00Z' },
        end: { date_time: '2026-12-10T10:00:00Z' },
        owner: 'fuzz-dav',
      },
    });
    expect(up.status).toBe(201);
    productHref = `${cal}${up.body.value.id}.ics`;
    const endless = await rawRequest(`${f.base}${cal}endless.ics`, {
      method: 'PUT',
      headers: { Authorization: authorization, 'content-type': 'text/calendar' },
      body: ics([
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//fuzz//EN',
        'BEGIN:VEVENT',
        'UID:endless-1',
        'DTSTAMP:20261001T000000Z',
        'DTSTART:20261001T000000Z',
        'DTEND:20261001T000100Z',
        'SUMMARY:Every minute, forever',
        'RRULE:FREQ=MINUTELY',
        'END:VEVENT',
        'END:VCALENDAR',
      ]),
    });
    expect(endless.status).toBe(201);

    report = await runFuzz(
      [
        {
          app: 'calendar',
          routes: readRouteManifest('calendar').filter((r) => isDavRoute(r.path)),
          urlFor: (route) => `${f.base}${route.path}`,
          credentials: () => undefined,
          readyUrl: `${f.base}/health/live`,
          routeCases: davRouteCases({
            app: 'calendar',
            origin: f.base,
            authorization,
            paths: {
              principal: '/dav/principals/acme/fuzz-dav/',
              home,
              calendar: cal,
              readOnlyObject: productHref,
            },
          }),
        },
      ],
      [],
      { seed: 20261123, randomPerRoute: 0, concurrency: 4, timeoutMs: 30000 },
    );
    process.stdout.write(
      `\ncaldav fuzz: ${report.routes} routes, ${report.requests} requests; statuses ${JSON.stringify(report.byStatus)}; ${report.failures.length} failures\n`,
    );
  }, 600_000);

  afterAll(() => f?.close());

  it('covers every CalDAV route of the manifest with the XML and iCalendar catalogue', () => {
    const routes = readRouteManifest('calendar')
      .filter((r) => isDavRoute(r.path))
      .map((r) => `${r.method} ${r.path}`);
    expect(routes).toEqual(
      expect.arrayContaining([
        'ALL /.well-known/caldav',
        'ALL /dav',
        'OPTIONS /dav',
        'ALL /dav/*path',
        'OPTIONS /dav/*path',
      ]),
    );
    expect(report.routes).toBe(routes.length);
    expect(report.requests).toBeGreaterThan(500);
  });

  it('never answers 5xx or hangs, and refuses with a DAV:error carrying the reason and request id', () => {
    const grouped = new Map<string, string[]>();
    for (const x of report.failures) {
      const key = `${x.route}: ${x.problem.slice(0, 160)}`;
      grouped.set(key, [...(grouped.get(key) ?? []), x.label]);
    }
    expect([...grouped].map(([k, labels]) => `${k} [${labels.slice(0, 4).join(' | ')}]`)).toEqual([]);
    expect(report.notReady).toEqual([]);
  });

  it('leaves the product event and the seeded series as they were', async () => {
    const product = await get(productHref);
    expect(product.status).toBe(200);
    expect(product.headers.etag).toBe('"1"');
    expect(product.text).toContain('SUMMARY:Contract signing');
    const endless = await get(`${cal}endless.ics`);
    expect(endless.headers.etag).toBe('"1"');
    expect(endless.text).toContain('RRULE:FREQ=MINUTELY');
  });
});
