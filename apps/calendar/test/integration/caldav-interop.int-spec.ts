import { spawn, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { DAVClient, type DAVCalendar, type DAVCalendarObject } from 'tsdav';
import { rawRequest, request } from '@platform/testing';
import { startCalendar, type CalendarFixture } from './calendar-fixture';
import { BERLIN, ics, singleEvent, veventsOf } from './ical-samples';

type Env<T = Record<string, unknown>> = { success: boolean; value: T };

/** Weekly on Wednesdays at 09:00 Berlin, across the October DST change. */
const weekly = (uid: string, summary: string) =>
  ics([
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//tsdav interop//EN',
    ...BERLIN,
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20261001T000000Z',
    'DTSTART;TZID=Europe/Berlin:20261007T090000',
    'DTEND;TZID=Europe/Berlin:20261007T093000',
    `SUMMARY:${summary}`,
    'RRULE:FREQ=WEEKLY;COUNT=8',
    'END:VEVENT',
    'END:VCALENDAR',
  ]);

const single = (uid: string, summary: string, start?: string, end?: string) =>
  singleEvent(uid, { summary, start, end });

/** What caldav_client.py prints: each step's findings, or the exception it raised. */
interface PythonSummary {
  steps: {
    discovery?: { principal: string; home: string; calendars: string[]; components: string[] };
    create?: { weekly: string; single: string };
    sync_initial?: { token: string; hrefs: string[] };
    search_expanded?: {
      count: number;
      summaries: string[];
      starts: string[];
      raw_count: number;
      raw_hrefs: string[];
      raw_has_rrule: boolean;
      raw_vevents: number;
      raw_recurrence_id: boolean;
    };
    search_outside?: { count: number };
    edit?: { summary: string; etag_before: string; etag_after: string };
    sync_changes?: { hrefs: string[]; token: string };
    delete?: { gone: boolean; remaining: string[] };
    product_write?: {
      refused: string | null;
      before: { summary: string; etag: string };
      after: { summary: string; etag: string };
    };
  };
  errors: Record<string, string>;
}

const PYTHON = '/usr/bin/python3';
const PYTHON_CLIENT = resolve(__dirname, '../interop/caldav_client.py');

/**
 * Issue 25's "done when": two CalDAV clients we did not write, run against the calendar app listening
 * on a real port over real PostgreSQL. npm's tsdav (discovery from /.well-known/caldav, the calendar
 * list, create/update/delete with ETags, an expanded time-range query, sync-collection) and Debian's
 * python3-caldav (the same through its own request shapes, run by /usr/bin/python3, which
 * scripts/ensure-python-caldav.sh installs). Each uses its own person, so neither sees the other's
 * writes, and each tries to overwrite a product event it can read: refused, the event unchanged.
 */
describe('CalDAV interop: tsdav and python3-caldav against the running server', () => {
  let f: CalendarFixture;
  let crmKey: string;

  async function appPassword(subject: string): Promise<{ username: string; password: string }> {
    const res = await request<Env<{ username: string; password: string }>>(
      `${f.base}/Calendar/app-passwords`,
      { headers: { PlatformSession: await f.session(subject) }, body: { label: 'interop' } },
    );
    expect(res.status).toBe(201);
    return res.body.value;
  }

  /** A product event owned by `owner`, which CalDAV shows in their default calendar read-only. */
  async function productEvent(owner: string, entityId: string) {
    const up = await request<Env<{ id: string; version: number }>>(`${f.base}/Calendar/upsert`, {
      headers: { API_KEY: crmKey, AccountId: 'acme', ProductId: 'crm' },
      body: {
        entity_type: 'deal',
        entity_id: entityId,
        title: 'Contract signing',
        start: { date_time: '2026-12-10T09:00:00Z' },
        end: { date_time: '2026-12-10T10:00:00Z' },
        owner,
      },
    });
    expect(up.status).toBe(201);
    return up.body.value;
  }

  /** The product event as the JSON API shows it to its product. */
  async function productView(entityId: string) {
    const res = await request<Env<{ items: { id: string; title: string; version: number }[] }>>(
      `${f.base}/Calendar/listByEntity?entity_type=deal&entity_id=${entityId}`,
      { headers: { API_KEY: crmKey, AccountId: 'acme', ProductId: 'crm' } },
    );
    expect(res.status).toBe(200);
    return res.body.value.items.map(({ id, title, version }) => ({ id, title, version }));
  }

  beforeAll(async () => {
    f = await startCalendar('calendar_caldav_interop');
    crmKey = await f.product('crm', ['Push', 'Read']);
  });

  afterAll(() => f?.close());

  describe('tsdav', () => {
    const home = '/dav/calendars/acme/person-ts/';
    const cal = `${home}default/`;
    let client: DAVClient;
    let calendar: DAVCalendar;
    let product: { id: string; version: number };
    /** What tsdav sent and was answered, in order. */
    const sent: { method: string; url: string; status: number }[] = [];
    const recording: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      sent.push({ method: init?.method ?? 'GET', url: String(input), status: res.status });
      return res;
    };

    beforeAll(async () => {
      const { username, password } = await appPassword('person-ts');
      product = await productEvent('person-ts', 'D-TS');
      client = new DAVClient({
        serverUrl: `${f.base}/.well-known/caldav`,
        credentials: { username, password },
        authMethod: 'Basic',
        defaultAccountType: 'caldav',
        fetch: recording,
      });
    });

    it('discovers the root, principal and calendar home from /.well-known/caldav (RFC 6764)', async () => {
      await client.login();
      // Its first request, PROPFIND with an XML body, is redirected as it is: tsdav falls back to a GET
      // when it is not, which hid a 415 for the body (clients such as DAVx5 start with this PROPFIND).
      expect(sent[0]).toEqual({ method: 'PROPFIND', url: `${f.base}/.well-known/caldav`, status: 301 });
      expect(client.account).toMatchObject({
        rootUrl: `${f.base}/dav/`,
        principalUrl: `${f.base}/dav/principals/acme/person-ts/`,
        homeUrl: `${f.base}${home}`,
      });
    });

    it('lists the default calendar with VEVENT, a ctag, a sync token and the reports it runs', async () => {
      const calendars = await client.fetchCalendars();
      const found = calendars.find((c) => c.url === `${f.base}${cal}`);
      expect(found).toBeDefined();
      calendar = found as DAVCalendar;
      expect(calendar.components).toEqual(['VEVENT']);
      expect(calendar.ctag).toBeTruthy();
      expect(calendar.syncToken).toBeTruthy();
      expect(calendar.reports).toEqual(
        expect.arrayContaining(['calendarQuery', 'calendarMultiget', 'syncCollection']),
      );
    });

    it('creates, reads back with ETag = version, updates with the ETag and refuses a stale one (412)', async () => {
      const created = await client.createCalendarObject({
        calendar,
        filename: 'weekly.ics',
        iCalString: weekly('ts-weekly-1', 'Team sync'),
      });
      expect(created.status).toBe(201);
      const dentist = await client.createCalendarObject({
        calendar,
        filename: 'dentist.ics',
        iCalString: single('ts-dentist-1', 'Dentist'),
      });
      expect(dentist.status).toBe(201);
      // If-None-Match: * (tsdav's create) on an existing name: nothing is overwritten.
      const again = await client.createCalendarObject({
        calendar,
        filename: 'dentist.ics',
        iCalString: single('ts-dentist-1', 'Overwritten'),
      });
      expect(again.status).toBe(412);

      const all = await client.fetchCalendarObjects({ calendar });
      const byUrl = new Map(all.map((o) => [o.url, o]));
      const dentistObject = byUrl.get(`${f.base}${cal}dentist.ics`) as DAVCalendarObject;
      expect(dentistObject.etag).toBe('"1"');
      expect(veventsOf(dentistObject.data as string)[0].getFirstPropertyValue('summary')).toBe('Dentist');
      expect(byUrl.get(`${f.base}${cal}weekly.ics`)?.etag).toBe('"1"');
      expect(byUrl.has(`${f.base}${cal}${product.id}.ics`)).toBe(true);

      const updated = await client.updateCalendarObject({
        calendarObject: {
          ...dentistObject,
          data: single('ts-dentist-1', 'Dentist, moved', '20261211T100000Z', '20261211T110000Z'),
        },
      });
      expect(updated.status).toBe(204);
      const [now] = await client.fetchCalendarObjects({
        calendar,
        objectUrls: [dentistObject.url],
      });
      expect(now.etag).toBe('"2"');
      expect(veventsOf(now.data as string)[0].getFirstPropertyValue('summary')).toBe('Dentist, moved');

      const stale = await client.updateCalendarObject({
        calendarObject: { ...dentistObject, data: single('ts-dentist-1', 'Lost update') },
      });
      expect(stale.status).toBe(412);
      expect(await stale.text()).toContain('CALDAV_PRECONDITION_FAILED');
      const [still] = await client.fetchCalendarObjects({ calendar, objectUrls: [dentistObject.url] });
      expect(still.etag).toBe('"2"');
      expect(veventsOf(still.data as string)[0].getFirstPropertyValue('summary')).toBe('Dentist, moved');
    });

    it('answers a time-range query with expand with ONE occurrence of the weekly event', async () => {
      // 2026-10-28 is after the DST change: 09:00 CET = 08:00Z. The dentist (December) is outside.
      const found = await client.fetchCalendarObjects({
        calendar,
        timeRange: { start: '2026-10-28T00:00:00Z', end: '2026-10-29T00:00:00Z' },
        expand: true,
      });
      expect(found.map((o) => o.url)).toEqual([`${f.base}${cal}weekly.ics`]);
      const occurrences = veventsOf(found[0].data as string);
      expect(occurrences).toHaveLength(1);
      expect(occurrences[0].hasProperty('rrule')).toBe(false);
      expect(String(occurrences[0].getFirstPropertyValue('recurrence-id'))).toBe('2026-10-28T08:00:00Z');
      expect(String(occurrences[0].getFirstPropertyValue('dtstart'))).toBe('2026-10-28T08:00:00Z');
      expect(occurrences[0].getFirstPropertyValue('summary')).toBe('Team sync');
    });

    it('syncs only what changed after a token (RFC 6578), through smartCollectionSync and a raw REPORT', async () => {
      const [before] = (await client.fetchCalendars()).filter((c) => c.url === calendar.url);
      const objects = await client.fetchCalendarObjects({ calendar });
      const added = await client.createCalendarObject({
        calendar,
        filename: 'added.ics',
        iCalString: single('ts-added-1', 'Added later', '20261215T100000Z', '20261215T110000Z'),
      });
      expect(added.status).toBe(201);
      const dentist = objects.find((o) => o.url.endsWith('/dentist.ics')) as DAVCalendarObject;
      expect((await client.deleteCalendarObject({ calendarObject: dentist })).status).toBe(204);

      const synced = await client.smartCollectionSync({
        collection: { ...before, objects, objectMultiGet: client.calendarMultiGet.bind(client) },
        method: 'webdav',
        detailedResult: true,
      });
      expect(synced.objects.created.map((o) => o.url)).toEqual([`${f.base}${cal}added.ics`]);
      expect(synced.objects.updated).toEqual([]);
      expect(synced.objects.deleted.map((o) => o.url)).toEqual([`${f.base}${cal}dentist.ics`]);
      expect(synced.syncToken).not.toBe(before.syncToken);

      // After the new token, nothing; after one more change, only that change.
      const quiet = await client.syncCollection({
        url: calendar.url,
        props: { 'd:getetag': {} },
        syncLevel: 1,
        syncToken: synced.syncToken,
      });
      expect(quiet.filter((r) => r.href).map((r) => r.href)).toEqual([]);
      const [addedObject] = await client.fetchCalendarObjects({
        calendar,
        objectUrls: [`${f.base}${cal}added.ics`],
      });
      const edited = await client.updateCalendarObject({
        calendarObject: { ...addedObject, data: single('ts-added-1', 'Added, edited') },
      });
      expect(edited.status).toBe(204);
      const delta = await client.syncCollection({
        url: calendar.url,
        props: { 'd:getetag': {} },
        syncLevel: 1,
        syncToken: synced.syncToken,
      });
      expect(delta.map((r) => [r.href, r.props?.getetag])).toEqual([[`${cal}added.ics`, '"2"']]);
    });

    it('refuses a PUT and a DELETE of a product event (403, DAV:need-privileges) and leaves it as it was', async () => {
      const href = `${f.base}${cal}${product.id}.ics`;
      const [original] = await client.fetchCalendarObjects({ calendar, objectUrls: [href] });
      expect(original.etag).toBe('"1"');
      expect(veventsOf(original.data as string)[0].getFirstPropertyValue('summary')).toBe('Contract signing');
      const put = await client.updateCalendarObject({
        calendarObject: { ...original, data: single(product.id, 'Hijacked') },
      });
      expect(put.status).toBe(403);
      expect(await put.text()).toContain('<d:need-privileges>');
      expect((await client.deleteCalendarObject({ calendarObject: original })).status).toBe(403);

      const [after] = await client.fetchCalendarObjects({ calendar, objectUrls: [href] });
      expect(after.etag).toBe('"1"');
      expect(after.data).toBe(original.data);
      expect(await productView('D-TS')).toEqual([{ id: product.id, title: 'Contract signing', version: 1 }]);
    });

    it('deletes its own events with their ETags, and the calendar no longer lists them', async () => {
      const objects = await client.fetchCalendarObjects({ calendar });
      for (const o of objects.filter((x) => !x.url.endsWith(`/${product.id}.ics`))) {
        expect((await client.deleteCalendarObject({ calendarObject: o })).status).toBe(204);
      }
      const left = await client.fetchCalendarObjects({ calendar });
      expect(left.map((o) => o.url)).toEqual([`${f.base}${cal}${product.id}.ics`]);
      const gone = await rawRequest(`${f.base}${cal}weekly.ics`, {
        method: 'GET',
        headers: client.authHeaders as Record<string, string>,
      });
      expect(gone.status).toBe(404);
    });
  });

  describe('python3-caldav (Debian, /usr/bin/python3)', () => {
    const home = '/dav/calendars/acme/person-py/';
    const cal = `${home}default/`;
    let product: { id: string; version: number };
    let summary: PythonSummary;

    beforeAll(async () => {
      const { username, password } = await appPassword('person-py');
      product = await productEvent('person-py', 'D-PY');
      // Not spawnSync: the app answers from this process's event loop, which spawnSync would block
      // for as long as the script waits for the app's answers.
      summary = await new Promise<PythonSummary>((done, fail) => {
        const child = spawn(
          PYTHON,
          [PYTHON_CLIENT, `${f.base}/dav/`, username, password, cal, `${cal}${product.id}.ics`],
          { stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let out = '';
        let err = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (err += d.toString()));
        const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
        child.on('close', (code) => {
          clearTimeout(timer);
          const last = out.trim().split('\n').pop() ?? '';
          try {
            done(JSON.parse(last) as PythonSummary);
          } catch {
            fail(new Error(`caldav_client.py exited ${code} without a summary:\n${out}\n${err}`));
          }
        });
      });
    }, 180_000);

    it('runs on Debian python3-caldav', () => {
      const probe = spawnSync(PYTHON, ['-c', 'import caldav, sys; print(caldav.__file__)'], {
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(probe.status).toBe(0);
      expect(probe.stdout).toContain('/usr/lib/python3/dist-packages/caldav/');
      expect(summary.errors).toEqual({});
    });

    it('discovers its principal, home and the default calendar with VEVENT', () => {
      expect(summary.steps.discovery).toEqual({
        principal: '/dav/principals/acme/person-py/',
        home,
        calendars: [cal],
        components: ['VEVENT'],
      });
    });

    it('creates events, and a time-range search with expand gets exactly one occurrence', () => {
      expect(summary.steps.create).toEqual({
        weekly: `${cal}py-weekly-1.ics`,
        single: `${cal}py-single-1.ics`,
      });
      expect(summary.steps.sync_initial?.hrefs).toEqual(
        [`${cal}${product.id}.ics`, `${cal}py-single-1.ics`, `${cal}py-weekly-1.ics`].sort(),
      );
      expect(summary.steps.search_expanded).toEqual({
        count: 1,
        summaries: ['Python weekly'],
        starts: ['2026-10-28T08:00:00+00:00'],
        raw_count: 1,
        raw_hrefs: [`${cal}py-weekly-1.ics`],
        raw_has_rrule: false,
        raw_vevents: 1,
        raw_recurrence_id: true,
      });
      expect(summary.steps.search_outside).toEqual({ count: 0 });
    });

    it('edits and saves, and sync-collection after the token reports only that change', () => {
      expect(summary.steps.edit).toEqual({
        summary: 'Python single, edited',
        etag_before: '"1"',
        etag_after: '"2"',
      });
      expect(summary.steps.sync_changes?.hrefs).toEqual([`${cal}py-single-1.ics`]);
      expect(summary.steps.sync_changes?.token).not.toBe(summary.steps.sync_initial?.token);
    });

    it('deletes an event', () => {
      expect(summary.steps.delete).toEqual({
        gone: true,
        remaining: [`${cal}${product.id}.ics`, `${cal}py-weekly-1.ics`].sort(),
      });
    });

    it('is refused when it saves over a product event, which stays as it was', async () => {
      expect(summary.steps.product_write).toEqual({
        refused: 'AuthorizationError',
        before: { summary: 'Contract signing', etag: '"1"' },
        after: { summary: 'Contract signing', etag: '"1"' },
      });
      expect(await productView('D-PY')).toEqual([{ id: product.id, title: 'Contract signing', version: 1 }]);
    });
  });
});
