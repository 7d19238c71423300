import ICAL from 'ical.js';
import { rawRequest, request, withClient } from '@platform/testing';
import { startCalendar, type CalendarFixture } from './calendar-fixture';
import { BERLIN, ics, singleEvent } from './ical-samples';

type Env<T = Record<string, unknown>> = { success: boolean; value: T };

/** A weekly stand-up in Berlin across the October DST change, one week skipped, one moved. */
function standup(uid: string, summary = 'Stand-up'): string {
  return ics([
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Test//CalDAV//EN',
    ...BERLIN,
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20261001T000000Z',
    'DTSTART;TZID=Europe/Berlin:20261007T090000',
    'DTEND;TZID=Europe/Berlin:20261007T093000',
    `SUMMARY:${summary}`,
    'RRULE:FREQ=WEEKLY;COUNT=8',
    'EXDATE;TZID=Europe/Berlin:20261021T090000',
    'BEGIN:VALARM',
    'ACTION:DISPLAY',
    'DESCRIPTION:Reminder',
    'TRIGGER:-PT10M',
    'END:VALARM',
    'END:VEVENT',
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20261001T000000Z',
    'RECURRENCE-ID;TZID=Europe/Berlin:20261104T090000',
    'DTSTART;TZID=Europe/Berlin:20261104T110000',
    'DTEND;TZID=Europe/Berlin:20261104T113000',
    `SUMMARY:${summary} (moved)`,
    'END:VEVENT',
    'END:VCALENDAR',
  ]);
}

const single = (uid: string, start?: string, end?: string, summary?: string) =>
  singleEvent(uid, { start, end, summary });

const calendarQuery = (start: string, end: string, expand = false) => `<?xml version="1.0" encoding="utf-8"?>
<C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">
  <D:prop><D:getetag/><C:calendar-data>${expand ? `<C:expand start="${start}" end="${end}"/>` : ''}</C:calendar-data></D:prop>
  <C:filter><C:comp-filter name="VCALENDAR"><C:comp-filter name="VEVENT">
    <C:time-range start="${start}" end="${end}"/>
  </C:comp-filter></C:comp-filter></C:filter>
</C:calendar-query>`;

const hrefsIn = (xml: string) => [...xml.matchAll(/<d:href>([^<]*)<\/d:href>/g)].map((m) => m[1]);
const unescape = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
const calendarDataIn = (xml: string) =>
  [...xml.matchAll(/<cal:calendar-data>([\s\S]*?)<\/cal:calendar-data>/g)].map((m) => unescape(m[1]));

describe('CalDAV server (RFC 4791) on real PostgreSQL', () => {
  let f: CalendarFixture;
  let auth: string;
  let other: string;
  let crmKey: string;
  const home = '/dav/calendars/acme/person-1/';
  const cal = `${home}default/`;

  const dav = (method: string, path: string, body?: string, headers: Record<string, string> = {}) =>
    rawRequest(`${f.base}${path}`, {
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

  async function appPassword(subject: string): Promise<string> {
    const res = await request<Env<{ username: string; password: string }>>(
      `${f.base}/Calendar/app-passwords`,
      {
        headers: { PlatformSession: await f.session(subject) },
        body: { label: 'test' },
      },
    );
    expect(res.status).toBe(201);
    return `Basic ${Buffer.from(`${res.body.value.username}:${res.body.value.password}`).toString('base64')}`;
  }

  beforeAll(async () => {
    f = await startCalendar('calendar_caldav', { CALENDAR_CONFERENCE_PROVIDER: 'stub' });
    auth = await appPassword('person-1');
    other = await appPassword('person-2');
    crmKey = await f.product('crm', ['Push', 'Read']);
  });

  afterAll(() => f?.close());

  it('answers OPTIONS without credentials and redirects /.well-known/caldav to the root', async () => {
    const opt = await rawRequest(`${f.base}/dav/`, { method: 'OPTIONS' });
    expect(opt.status).toBe(200);
    expect(String(opt.headers.dav)).toContain('calendar-access');
    expect(String(opt.headers.allow)).toContain('REPORT');
    const wk = await rawRequest(`${f.base}/.well-known/caldav`, { method: 'PROPFIND' });
    expect(wk.status).toBe(301);
    expect(wk.headers.location).toBe('/dav/');
  });

  it('asks for Basic credentials with a DAV:error body, and refuses a wrong password', async () => {
    const none = await rawRequest(`${f.base}/dav/`, { method: 'PROPFIND', headers: { Depth: '0' } });
    expect(none.status).toBe(401);
    expect(String(none.headers['www-authenticate'])).toMatch(/^Basic realm="Calendar"/);
    expect(none.text).toContain('<d:error');
    const wrong = await rawRequest(`${f.base}/dav/`, {
      method: 'PROPFIND',
      headers: { Authorization: `Basic ${Buffer.from('dav-nobody:nope').toString('base64')}` },
    });
    expect(wrong.status).toBe(401);
  });

  it('discovers principal, calendar home and the default calendar (RFC 6764, RFC 4791 6.2.1)', async () => {
    const root = await dav(
      'PROPFIND',
      '/dav/',
      '<d:propfind xmlns:d="DAV:"><d:prop><d:current-user-principal/></d:prop></d:propfind>',
      { Depth: '0' },
    );
    expect(root.status).toBe(207);
    expect(hrefsIn(root.text)).toContain('/dav/principals/acme/person-1/');
    const principal = await dav(
      'PROPFIND',
      '/dav/principals/acme/person-1/',
      '<d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><c:calendar-home-set/><d:unknown-prop/></d:prop></d:propfind>',
      { Depth: '0' },
    );
    expect(principal.status).toBe(207);
    expect(hrefsIn(principal.text)).toContain(home);
    expect(principal.text).toContain('HTTP/1.1 404 Not Found');
    const listing = await dav(
      'PROPFIND',
      home,
      '<d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/"><d:prop><d:resourcetype/><c:supported-calendar-component-set/><cs:getctag/></d:prop></d:propfind>',
      { Depth: '1' },
    );
    expect(listing.status).toBe(207);
    expect(hrefsIn(listing.text)).toContain(cal);
    expect(listing.text).toContain('<cal:comp name="VEVENT"/>');
    expect(listing.text).toMatch(/<cs:getctag>[^<]+<\/cs:getctag>/);
  });

  it('creates, reads with ETag = version, replaces with If-Match and refuses stale or duplicate writes', async () => {
    const put = await dav('PUT', `${cal}standup.ics`, standup('standup-1'), { 'If-None-Match': '*' });
    expect(put.status).toBe(201);
    const got = await dav('GET', `${cal}standup.ics`);
    expect(got.status).toBe(200);
    expect(got.headers.etag).toBe('"1"');
    expect(got.headers['content-type']).toMatch(/^text\/calendar/);
    expect(got.text).toContain('BEGIN:VALARM');
    expect(got.text).toContain('RECURRENCE-ID;TZID=Europe/Berlin:20261104T090000');
    const again = await dav('GET', `${cal}standup.ics`, undefined, { 'If-None-Match': '"1"' });
    expect(again.status).toBe(304);

    expect(
      (await dav('PUT', `${cal}standup.ics`, standup('standup-1'), { 'If-None-Match': '*' })).status,
    ).toBe(412);
    const stale = await dav('PUT', `${cal}standup.ics`, standup('standup-1', 'Renamed'), {
      'If-Match': '"7"',
    });
    expect(stale.status).toBe(412);
    expect(stale.text).toContain('CALDAV_PRECONDITION_FAILED');
    const replaced = await dav('PUT', `${cal}standup.ics`, standup('standup-1', 'Daily sync'), {
      'If-Match': '"1"',
    });
    expect(replaced.status).toBe(204);
    const now = await dav('GET', `${cal}standup.ics`);
    expect(now.headers.etag).toBe('"2"');
    expect(now.text).toContain('SUMMARY:Daily sync');

    const clash = await dav('PUT', `${cal}copy.ics`, standup('standup-1'));
    expect(clash.status).toBe(409);
    expect(clash.text).toContain(
      '<cal:no-uid-conflict><d:href>/dav/calendars/acme/person-1/default/standup.ics</d:href>',
    );
    expect((await dav('GET', `${cal}copy.ics`)).status).toBe(404);
  });

  it('refuses invalid iCalendar, two UIDs and VTODOs with CALDAV preconditions, storing nothing', async () => {
    const garbage = await dav('PUT', `${cal}bad.ics`, 'BEGIN:VCALENDAR\r\nthis is not ical\r\n');
    expect(garbage.status).toBe(403);
    expect(garbage.text).toContain('<cal:valid-calendar-data/>');
    const twoUids = await dav(
      'PUT',
      `${cal}two.ics`,
      `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTAMP:20261001T000000Z\r\nDTSTART:20261201T100000Z\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:b\r\nDTSTAMP:20261001T000000Z\r\nDTSTART:20261202T100000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n`,
    );
    expect(twoUids.status).toBe(403);
    expect(twoUids.text).toContain('valid-calendar-data');
    const todo = await dav(
      'PUT',
      `${cal}todo.ics`,
      'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VTODO\r\nUID:t\r\nDTSTAMP:20261001T000000Z\r\nEND:VTODO\r\nEND:VCALENDAR\r\n',
    );
    expect(todo.status).toBe(403);
    expect(todo.text).toContain('<cal:supported-calendar-component/>');
    for (const name of ['bad.ics', 'two.ics', 'todo.ics'])
      expect((await dav('GET', `${cal}${name}`)).status).toBe(404);
  });

  it('answers a time-range calendar-query with the occurrences of a recurring event (EXDATE, override, DST)', async () => {
    // The week of 2026-10-21 is excluded; 2026-10-28 is after the DST change (09:00 CET = 08:00Z).
    const skipped = await dav('REPORT', cal, calendarQuery('20261020T000000Z', '20261027T000000Z'), {
      Depth: '1',
    });
    expect(skipped.status).toBe(207);
    expect(hrefsIn(skipped.text)).not.toContain(`${cal}standup.ics`);
    const after = await dav('REPORT', cal, calendarQuery('20261028T075900Z', '20261028T080100Z'), {
      Depth: '1',
    });
    expect(hrefsIn(after.text)).toContain(`${cal}standup.ics`);
    const moved = await dav('REPORT', cal, calendarQuery('20261104T095900Z', '20261104T100100Z', true), {
      Depth: '1',
    });
    expect(hrefsIn(moved.text)).toContain(`${cal}standup.ics`);
    const [expanded] = calendarDataIn(moved.text);
    const vevents = new ICAL.Component(ICAL.parse(expanded) as unknown[]).getAllSubcomponents('vevent');
    expect(vevents).toHaveLength(1);
    expect(vevents[0].getFirstPropertyValue('summary')).toBe('Daily sync (moved)');
    expect(String(vevents[0].getFirstPropertyValue('dtstart'))).toBe('2026-11-04T10:00:00Z');
    expect(vevents[0].hasProperty('rrule')).toBe(false);
  });

  it('shows product events of the person read-only: PUT and DELETE are 403 and the event stays as it was', async () => {
    const up = await request<Env<{ id: string; version: number }>>(`${f.base}/Calendar/upsert`, {
      headers: { API_KEY: crmKey, AccountId: 'acme', ProductId: 'crm' },
      body: {
        entity_type: 'deal',
        entity_id: 'D-1',
        title: 'Contract signing',
        start: { date_time: '2026-12-10T09:00:00Z' },
        end: { date_time: '2026-12-10T10:00:00Z' },
        owner: 'person-1',
      },
    });
    expect(up.status).toBe(201);
    const href = `${cal}${up.body.value.id}.ics`;
    const got = await dav('GET', href);
    expect(got.status).toBe(200);
    expect(got.text).toContain('SUMMARY:Contract signing');
    const put = await dav(
      'PUT',
      href,
      single(up.body.value.id, '20261210T090000Z', '20261210T100000Z', 'Hijacked'),
    );
    expect(put.status).toBe(403);
    expect(put.text).toContain('<d:need-privileges>');
    expect((await dav('DELETE', href)).status).toBe(403);
    const after = await dav('GET', href);
    expect(after.headers.etag).toBe('"1"');
    expect(after.text).toContain('SUMMARY:Contract signing');
  });

  it('syncs only what changed since a token (RFC 6578), removals as 404', async () => {
    const body = (token: string) =>
      `<d:sync-collection xmlns:d="DAV:"><d:sync-token>${token}</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>`;
    const first = await dav('REPORT', cal, body(''));
    expect(first.status).toBe(207);
    const token = /<d:sync-token>([^<]+)<\/d:sync-token>/.exec(first.text)?.[1] as string;
    expect(token).toBeTruthy();
    expect(hrefsIn(first.text)).toContain(`${cal}standup.ics`);
    expect((await dav('PUT', `${cal}dentist.ics`, single('dentist-1'))).status).toBe(201);
    const second = await dav('REPORT', cal, body(token));
    expect(hrefsIn(second.text)).toEqual([`${cal}dentist.ics`]);
    const token2 = /<d:sync-token>([^<]+)<\/d:sync-token>/.exec(second.text)?.[1] as string;
    expect((await dav('DELETE', `${cal}dentist.ics`, undefined, { 'If-Match': '"1"' })).status).toBe(204);
    const third = await dav('REPORT', cal, body(token2));
    expect(hrefsIn(third.text)).toEqual([`${cal}dentist.ics`]);
    expect(third.text).toContain('HTTP/1.1 404 Not Found');
    expect((await dav('REPORT', cal, body('http://calendar.platform/ns/sync/999999'))).status).toBe(403);
  });

  it('writes a CalDAV event through the journal and outbox, and the JSON views show it', async () => {
    await withClient(f.db.url, async (c) => {
      const { rows } = await c.query(
        `SELECT e.version, (SELECT count(*)::int FROM calendar.journal j WHERE j.event_id = e.id) AS entries
         FROM calendar.events e WHERE e.dav_name = 'standup.ics'`,
      );
      expect(rows).toEqual([{ version: 2, entries: 2 }]);
    });
    const views = await request<Env<{ items: { title?: string }[] }>>(
      `${f.base}/Calendar/events?from=2026-10-01T00:00:00Z&to=2026-10-08T00:00:00Z`,
      { headers: { PlatformSession: await f.session('person-1') } },
    );
    expect(views.status).toBe(200);
    expect(views.body.value.items.map((i) => i.title)).toContain('Daily sync');
  });

  it('answers multiget (missing hrefs 404) and free-busy-query', async () => {
    const multi = await dav(
      'REPORT',
      cal,
      `<c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop><d:href>${cal}standup.ics</d:href><d:href>${cal}nothing.ics</d:href></c:calendar-multiget>`,
      { Depth: '1' },
    );
    expect(multi.status).toBe(207);
    expect(calendarDataIn(multi.text)[0]).toContain('UID:standup-1');
    expect(multi.text).toContain(
      `<d:href>${cal}nothing.ics</d:href><d:status>HTTP/1.1 404 Not Found</d:status>`,
    );
    const fb = await dav(
      'REPORT',
      cal,
      `<c:free-busy-query xmlns:c="urn:ietf:params:xml:ns:caldav"><c:time-range start="20261028T000000Z" end="20261029T000000Z"/></c:free-busy-query>`,
      { Depth: '1' },
    );
    expect(fb.status).toBe(200);
    expect(fb.text).toContain('FREEBUSY;FBTYPE=BUSY:20261028T080000Z/20261028T083000Z');
  });

  it("refuses another person's calendars and hostile XML without a 5xx", async () => {
    const theirs = await rawRequest(`${f.base}${cal}`, {
      method: 'PROPFIND',
      headers: { Authorization: other, Depth: '0' },
    });
    expect(theirs.status).toBe(403);
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><d:propfind xmlns:d="DAV:"><d:prop><d:displayname>&lol2;</d:displayname></d:prop></d:propfind>`;
    expect((await dav('PROPFIND', cal, laughs, { Depth: '0' })).status).toBe(400);
    const deep = `${'<d:a xmlns:d="DAV:">'.repeat(200)}${'</d:a>'.repeat(200)}`;
    expect((await dav('PROPFIND', cal, deep, { Depth: '0' })).status).toBe(400);
    const invalidUtf8 = await rawRequest(`${f.base}${cal}x.ics`, {
      method: 'PUT',
      headers: { Authorization: auth, 'content-type': 'text/calendar' },
      body: Buffer.from([0x42, 0x45, 0xff, 0xfe, 0x47]),
    });
    expect(invalidUtf8.status).toBe(400);
    expect((await dav('PROPFIND', cal, undefined, { Depth: 'infinity' })).status).toBe(403);
  });

  it('makes a calendar with MKCALENDAR, lists it in the home, and keeps it while it holds events', async () => {
    const made = await dav(
      'MKCALENDAR',
      `${home}work/`,
      '<c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop><d:displayname>Work</d:displayname></d:prop></d:set></c:mkcalendar>',
    );
    expect(made.status).toBe(201);
    expect((await dav('MKCALENDAR', `${home}work/`)).status).toBe(405);
    const listing = await dav('PROPFIND', home, undefined, { Depth: '1' });
    expect(hrefsIn(listing.text)).toContain(`${home}work/`);
    expect(listing.text).toContain('<d:displayname>Work</d:displayname>');
    expect((await dav('PUT', `${home}work/review.ics`, single('standup-1'))).status).toBe(201);
    expect((await dav('DELETE', `${home}work/`)).status).toBe(409);
    expect((await dav('DELETE', `${home}work/review.ics`)).status).toBe(204);
    expect((await dav('DELETE', `${home}work/`)).status).toBe(204);
  });

  it('renames and colours a calendar with PROPPATCH, all or nothing', async () => {
    const patch = (props: string) =>
      dav(
        'PROPPATCH',
        cal,
        `<d:propertyupdate xmlns:d="DAV:" xmlns:a="http://apple.com/ns/ical/" xmlns:x="urn:example"><d:set><d:prop>${props}</d:prop></d:set></d:propertyupdate>`,
      );
    const mixed = await patch('<d:displayname>Mine</d:displayname><x:order>3</x:order>');
    expect(mixed.status).toBe(207);
    expect(mixed.text).toContain('HTTP/1.1 403 Forbidden');
    expect(mixed.text).toContain('HTTP/1.1 424 Failed Dependency');
    const ok = await patch(
      '<d:displayname>Mine</d:displayname><a:calendar-color>#FF0000FF</a:calendar-color>',
    );
    expect(ok.text).toContain('HTTP/1.1 200 OK');
    const shown = await dav(
      'PROPFIND',
      cal,
      '<d:propfind xmlns:d="DAV:" xmlns:a="http://apple.com/ns/ical/"><d:prop><d:displayname/><a:calendar-color/></d:prop></d:propfind>',
      { Depth: '0' },
    );
    expect(shown.text).toContain('<d:displayname>Mine</d:displayname>');
    expect(shown.text).toContain('<ical:calendar-color>#FF0000FF</ical:calendar-color>');
    const listing = await dav('PROPFIND', home, undefined, { Depth: '1' });
    expect(hrefsIn(listing.text).filter((h) => h === cal)).toHaveLength(1);
  });

  it("refuses a key of the reserved product 'personal'", async () => {
    const key = await f.product('personal', ['Push', 'Read']);
    const res = await request(`${f.base}/Calendar/upsert`, {
      headers: { API_KEY: key, AccountId: 'acme', ProductId: 'personal' },
      body: { entity_type: 'caldav', entity_id: 'x', title: 'Forged' },
    });
    expect(res.status).toBe(401);
  });

  it('serves a product event with its invitations (ATTENDEE/PARTSTAT) and conference, and an RSVP moves it', async () => {
    const headers = { API_KEY: crmKey, AccountId: 'acme', ProductId: 'crm' };
    const triple = { entity_type: 'deal', entity_id: 'D-inv' };
    const up = await request<Env<{ id: string }>>(`${f.base}/Calendar/upsert`, {
      headers,
      body: {
        ...triple,
        title: 'Kick-off',
        start: { date_time: '2026-12-11T09:00:00Z' },
        end: { date_time: '2026-12-11T10:00:00Z' },
        owner: 'person-1',
      },
    });
    expect(up.status).toBe(201);
    const invited = await request(`${f.base}/Calendar/invite`, {
      headers,
      body: {
        ...triple,
        attendees: [
          { kind: 'person', id: 'bob' },
          { kind: 'email', email: 'guest@example.com' },
        ],
      },
    });
    expect(invited.status).toBe(200);
    expect((await request(`${f.base}/Calendar/attachConference`, { headers, body: triple })).status).toBe(
      200,
    );
    const href = `${cal}${up.body.value.id}.ics`;
    const unfold = (t: string) => t.replace(/\r\n[ \t]/g, '');
    const first = await dav('GET', href);
    const before = unfold(first.text);
    expect(before).toMatch(/ATTENDEE;[^\r\n]*PARTSTAT=NEEDS-ACTION[^\r\n]*:urn:x-calendar:person:bob/);
    expect(before).toMatch(/ATTENDEE;[^\r\n]*:mailto:guest@example.com/);
    expect(before).toMatch(/CONFERENCE;[^\r\n]*:https?:\/\//);
    const rsvp = await request(`${f.base}/Calendar/rsvp`, {
      headers: { PlatformSession: await f.session('bob') },
      body: { product_id: 'crm', ...triple, answer: 'ACCEPTED' },
    });
    expect(rsvp.status).toBe(200);
    const after = await dav('GET', href);
    expect(after.headers.etag).not.toBe(first.headers.etag);
    expect(unfold(after.text)).toMatch(
      /ATTENDEE;[^\r\n]*PARTSTAT=ACCEPTED[^\r\n]*:urn:x-calendar:person:bob/,
    );
  });

  it('answers time ranges over RDATEs and all-day series', async () => {
    const text = ics([
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Test//CalDAV//EN',
      'BEGIN:VEVENT',
      'UID:rdate-1',
      'DTSTAMP:20261001T000000Z',
      'DTSTART:20261201T120000Z',
      'DTEND:20261201T130000Z',
      'RDATE:20261222T150000Z',
      'SUMMARY:Extra date',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:allday-1',
      'DTSTAMP:20261001T000000Z',
      'DTSTART;VALUE=DATE:20261228',
      'RRULE:FREQ=DAILY;COUNT=3',
      'SUMMARY:Holiday',
      'END:VEVENT',
      'END:VCALENDAR',
    ]);
    const [rdate, allday] = text
      .split('BEGIN:VEVENT')
      .slice(1)
      .map((v) =>
        ics([
          'BEGIN:VCALENDAR',
          'VERSION:2.0',
          'PRODID:-//Test//CalDAV//EN',
          `BEGIN:VEVENT${v.replace(/END:VCALENDAR\r\n$/, '')}`.trimEnd(),
          'END:VCALENDAR',
        ]),
      );
    expect((await dav('PUT', `${cal}rdate.ics`, rdate)).status).toBe(201);
    expect((await dav('PUT', `${cal}holiday.ics`, allday)).status).toBe(201);
    const onRdate = await dav('REPORT', cal, calendarQuery('20261222T140000Z', '20261222T160000Z'), {
      Depth: '1',
    });
    expect(hrefsIn(onRdate.text)).toEqual([`${cal}rdate.ics`]);
    const third = await dav('REPORT', cal, calendarQuery('20261230T100000Z', '20261230T110000Z'), {
      Depth: '1',
    });
    expect(hrefsIn(third.text)).toEqual([`${cal}holiday.ics`]);
    const after = await dav('REPORT', cal, calendarQuery('20261231T100000Z', '20261231T110000Z'), {
      Depth: '1',
    });
    expect(hrefsIn(after.text)).not.toContain(`${cal}holiday.ics`);
  });

  it('reports a product event the person left as removed in sync-collection, and takes a Bearer session', async () => {
    const headers = { API_KEY: crmKey, AccountId: 'acme', ProductId: 'crm' };
    const body = {
      entity_type: 'deal',
      entity_id: 'D-left',
      title: 'Handover',
      start: { date_time: '2026-12-12T09:00:00Z' },
      assignees: ['person-1'],
    };
    const up = await request<Env<{ id: string; version: number }>>(`${f.base}/Calendar/upsert`, {
      headers,
      body,
    });
    expect(up.status).toBe(201);
    const sync = (token: string) =>
      dav(
        'REPORT',
        cal,
        `<d:sync-collection xmlns:d="DAV:"><d:sync-token>${token}</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>`,
      );
    const first = await sync('');
    const token = /<d:sync-token>([^<]+)<\/d:sync-token>/.exec(first.text)?.[1] as string;
    const href = `${cal}${up.body.value.id}.ics`;
    expect(hrefsIn(first.text)).toContain(href);
    const moved = await request(`${f.base}/Calendar/upsert`, {
      headers,
      body: { ...body, version: 1, assignees: ['someone-else'] },
    });
    expect(moved.status).toBe(200);
    const next = await sync(token);
    expect(next.text).toContain(`<d:href>${href}</d:href><d:status>HTTP/1.1 404 Not Found</d:status>`);

    const bearer = await rawRequest(`${f.base}${cal}`, {
      method: 'PROPFIND',
      headers: { Authorization: `Bearer ${await f.session('person-1')}`, Depth: '0' },
    });
    expect(bearer.status).toBe(207);
  });

  it('pages sync-collection by DAV:limit with a 507 marker and a token at the last change returned', async () => {
    const sync = (token: string, limit?: number) =>
      dav(
        'REPORT',
        cal,
        `<d:sync-collection xmlns:d="DAV:"><d:sync-token>${token}</d:sync-token><d:sync-level>1</d:sync-level>${
          limit ? `<d:limit><d:nresults>${limit}</d:nresults></d:limit>` : ''
        }<d:prop><d:getetag/></d:prop></d:sync-collection>`,
      );
    const tokenOf = (xml: string) => /<d:sync-token>([^<]+)<\/d:sync-token>/.exec(xml)?.[1] as string;
    const start = tokenOf((await sync('')).text);
    for (const n of [1, 2, 3])
      expect((await dav('PUT', `${cal}page-${n}.ics`, single(`page-${n}`))).status).toBe(201);
    const first = await sync(start, 2);
    expect(hrefsIn(first.text)).toEqual([`${cal}page-1.ics`, `${cal}page-2.ics`, cal]);
    expect(first.text).toContain(
      `<d:href>${cal}</d:href><d:status>HTTP/1.1 507 Insufficient Storage</d:status>`,
    );
    const rest = await sync(tokenOf(first.text), 2);
    expect(hrefsIn(rest.text)).toEqual([`${cal}page-3.ics`]);
  });

  it('refuses a resource whose stored, refolded text would pass max-resource-size (413)', async () => {
    // 510 lines of 2040 octets (1,040,400 bytes): refolded at 75, each grows by 27 CRLF+space, past 1 MiB.
    const description = Array.from({ length: 510 }, () => `X-NOTE:${'n'.repeat(2033)}`);
    const body = single('big-1').replace('SUMMARY:Dentist', ['SUMMARY:Dentist', ...description].join('\r\n'));
    expect(Buffer.byteLength(body)).toBeLessThan(1_048_576);
    const put = await dav('PUT', `${cal}big.ics`, body);
    expect(put.status).toBe(413);
    expect(put.text).toContain('<cal:max-resource-size/>');
    expect((await dav('GET', `${cal}big.ics`)).status).toBe(404);
  });

  it('takes a PUT without Content-Type as iCalendar, and a 405 names the methods the resource takes', async () => {
    const put = await rawRequest(`${f.base}${cal}untyped.ics`, {
      method: 'PUT',
      headers: { Authorization: auth, 'content-type': '' },
      body: single('untyped-1'),
    });
    expect(put.status).toBe(201);
    const refused = await dav('DELETE', cal);
    expect(refused.status).toBe(405);
    expect(refused.headers.allow).toBe('OPTIONS, PROPFIND, PROPPATCH, REPORT');
    const get = await dav('GET', cal);
    expect(get.status).toBe(405);
    expect(String(get.headers.allow)).not.toContain('GET');
  });
});
