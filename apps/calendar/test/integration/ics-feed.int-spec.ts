import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import ICAL from 'ical.js';
import {
  DAY_MS,
  HOUR_MS,
  formatWall,
  localDateTime,
  resolveZone,
  weekdayOf,
  type Zone,
} from '@platform/time';
import { rawRequest, request, withClient, type RawResponse } from '@platform/testing';
import { ensureAccount } from './calendar-admin';
import { startCalendar, type CalendarFixture } from './calendar-fixture';

type Env<T = Record<string, unknown>> = { success: boolean; code: number; error: string | null; value: T };
type Listed = {
  id: string;
  name: string;
  view: string;
  target: string;
  token_prefix: string;
  created_at: string;
  last_used_at: string | null;
};
type Created = Listed & { token: string; url: string; webcal_url: string };
type Failure = { reason: string; requestId: string; fields?: { field: string }[] };
type Occurrences = { items: { series_id?: string; start: { date_time?: string } }[]; total: number };

const ROOT = resolve(__dirname, '../../../..');
const BERLIN = resolveZone('Europe/Berlin') as Zone;
/** iCalendar's basic form of a wall time: 20261207T090000. */
const basic = (wallMs: number) => formatWall(wallMs).replace(/[-:]/g, '');

/** What Debian's python3-icalendar reads of a feed: every VEVENT's UID, SUMMARY, start, and the zones. */
const PYTHON_READ = `
import sys, json, icalendar
cal = icalendar.Calendar.from_ical(sys.stdin.buffer.read())
events = []
for c in cal.walk('VEVENT'):
    start = c.decoded('DTSTART')
    events.append({
        'uid': str(c.get('UID')),
        'summary': str(c.get('SUMMARY')),
        'recurrenceId': c.get('RECURRENCE-ID') is not None,
        'start': start.timestamp() if hasattr(start, 'timestamp') and getattr(start, 'tzinfo', None) else str(start),
    })
zones = [str(z.get('TZID')) for z in cal.walk('VTIMEZONE')]
print(json.dumps({'events': events, 'zones': zones, 'name': str(cal.get('X-WR-CALNAME'))}))
`;
type PythonRead = {
  events: { uid: string; summary: string; recurrenceId: boolean; start: number | string }[];
  zones: string[];
  name: string;
};

/** Parses a feed as a client does: VTIMEZONEs registered before any time is read. */
function parseFeed(text: string): ICAL.Component {
  const root = ICAL.Component.fromString(text);
  for (const z of root.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(z);
  return root;
}

/** A UTC instant of an ical.js time (its zone registered by parseFeed). */
const instantOf = (t: ICAL.Time) => t.toJSDate().getTime();

/** ical.js's occurrences of the series with this UID overlapping [from, to): start and end instants. */
function icalOccurrences(root: ICAL.Component, uid: string, from: number, to: number): string[] {
  const vevents = root.getAllSubcomponents('vevent').filter((v) => v.getFirstPropertyValue('uid') === uid);
  const master = new ICAL.Event(vevents.find((v) => !v.hasProperty('recurrence-id')));
  for (const v of vevents) if (v.hasProperty('recurrence-id')) master.relateException(v);
  const out: string[] = [];
  const it = master.iterator();
  for (let next = it.next(); next && instantOf(next) < to + 7 * DAY_MS; next = it.next()) {
    const d = master.getOccurrenceDetails(next);
    const [start, end] = [instantOf(d.startDate), instantOf(d.endDate)];
    if (start < to && end > from) out.push(new Date(start).toISOString());
  }
  return out.sort();
}

/**
 * The ICS subscription feed (docs/ics-feed.md) on real PostgreSQL, fetched the way a calendar client
 * subscribes: no credential but the token in the path. Parsed with ical.js and with Debian's
 * python3-icalendar (installed by scripts/ensure-python-icalendar.sh, which npm test also runs).
 */
describe('ICS subscription feed (real PostgreSQL)', () => {
  let cal: CalendarFixture;
  let crm: string;
  let n = 0;
  /** The series' first occurrence: a Monday 09:00 in Berlin eight weeks ago, weekly, 40 times. */
  let seriesWall: number;

  const product = () => ({ API_KEY: crm, AccountId: 'acme', ProductId: 'crm' });
  const upsert = async (fields: Record<string, unknown>, entity = `E-${++n}`, version = 0) => {
    const res = await request<Env<{ id: string; version: number }>>(`${cal.base}/Calendar/upsert`, {
      headers: product(),
      body: { entity_type: 'meeting', entity_id: entity, version, ...fields },
    });
    expect([res.status, res.body.value]).toEqual([version ? 200 : 201, expect.anything()]);
    return res.body.value;
  };
  const as = async (subject: string, account = 'acme') => ({
    PlatformSession: await cal.session(subject, [], account),
  });
  const create = async (subject: string, body: Record<string, unknown>, account = 'acme') =>
    request<Env<Created>>(`${cal.base}/Calendar/ics-feeds`, { headers: await as(subject, account), body });
  const created = async (subject: string, body: Record<string, unknown>) => {
    const res = await create(subject, body);
    expect(res.status).toBe(201);
    return res.body.value;
  };
  const fetchFeed = (token: string, headers: Record<string, string> = {}) =>
    rawRequest(`${cal.base}/Calendar/ics/${token}`, { headers });
  const feedOf = async (token: string) => {
    const res = await fetchFeed(token);
    expect(res.status).toBe(200);
    return res;
  };
  const refusal = (res: RawResponse) => ({
    status: res.status,
    type: String(res.headers['content-type']),
    reason: (res.json?.value as Failure | undefined)?.reason,
    error: res.json?.error,
  });
  const berlinTime = (wall: number) => ({
    date_time: localDateTime(new Date(BERLIN.toInstant(wall)), 'Europe/Berlin'),
    time_zone: 'Europe/Berlin',
  });

  beforeAll(async () => {
    execFileSync('bash', [resolve(ROOT, 'scripts/ensure-python-icalendar.sh')], { stdio: 'inherit' });
    cal = await startCalendar('cal_ics_feed', { CALENDAR_PUBLIC_URL: 'https://platform.example.test/' });
    await ensureAccount(cal.app, 'globex', 'Globex');
    crm = await cal.product('crm', ['Push', 'Read']);
    await withClient(cal.db.url, (c) =>
      c.query(`INSERT INTO calendar.team_members (account_id, team_id, person_id)
               VALUES ('acme', 'sales', 'alice'), ('acme', 'sales', 'bob'), ('acme', 'ops', 'carol')`),
    );
    const today = Math.floor(Date.now() / DAY_MS);
    const monday = today - 56 - weekdayOf(today - 56);
    seriesWall = monday * DAY_MS + 9 * HOUR_MS;
    const week = (k: number) => seriesWall + k * 7 * DAY_MS;
    await upsert(
      {
        title: 'Weekly sync',
        description: 'Numbers, plans; risks',
        location: 'Room 301',
        start: berlinTime(week(0)),
        end: berlinTime(week(0) + HOUR_MS),
        owner: 'alice',
        resources: [{ type: 'room', id: 'r-1' }],
        recurrence: [
          'RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=40',
          `EXDATE;TZID=Europe/Berlin:${basic(week(2))}`,
          `RDATE;TZID=Europe/Berlin:${basic(week(3) + 2 * DAY_MS + 6 * HOUR_MS)}`,
        ],
        overrides: [
          {
            recurrence_id: new Date(BERLIN.toInstant(week(9))).toISOString(),
            start: berlinTime(week(9) + 2 * HOUR_MS),
            end: berlinTime(week(9) + 3 * HOUR_MS),
          },
          { recurrence_id: new Date(BERLIN.toInstant(week(10))).toISOString(), cancelled: true },
        ],
      },
      'SERIES',
    );
    await upsert(
      { title: 'Offsite', start: { date: formatWall((today + 10) * DAY_MS).slice(0, 10) }, owner: 'alice' },
      'ALLDAY',
    );
    await upsert({
      title: 'Call with Tokyo',
      start: { date_time: new Date((today + 3) * DAY_MS + 6 * HOUR_MS).toISOString() },
      end: { date_time: new Date((today + 3) * DAY_MS + 7 * HOUR_MS).toISOString() },
      owner: 'alice',
    });
    // Bob's private event in New York, with alice's room: a busy block to alice.
    await upsert({
      title: 'Secret merger',
      description: 'Acquire Initech',
      location: 'Lawyers office',
      visibility: 'private',
      start: {
        date_time: new Date((today + 5) * DAY_MS + 15 * HOUR_MS).toISOString(),
        time_zone: 'America/New_York',
      },
      end: {
        date_time: new Date((today + 5) * DAY_MS + 16 * HOUR_MS).toISOString(),
        time_zone: 'America/New_York',
      },
      owner: 'bob',
      resources: [{ type: 'room', id: 'r-1' }],
      metadata: { deal: 'initech' },
    });
    await upsert({
      title: 'Team lunch',
      start: {
        date_time: new Date((today + 6) * DAY_MS + 11 * HOUR_MS).toISOString(),
        time_zone: 'Asia/Almaty',
      },
      end: {
        date_time: new Date((today + 6) * DAY_MS + 12 * HOUR_MS).toISOString(),
        time_zone: 'Asia/Almaty',
      },
      owner: 'bob',
    });
    await upsert({
      title: 'Carol only',
      start: { date_time: new Date((today + 7) * DAY_MS + 9 * HOUR_MS).toISOString() },
      owner: 'carol',
    });
    // An event alice put in over CalDAV: its stored text is the feed's VEVENT (VALARM and own zone kept).
    const ical = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Client//EN',
      'BEGIN:VTIMEZONE',
      'TZID:Office Time',
      'BEGIN:STANDARD',
      'DTSTART:19700101T000000',
      'TZOFFSETFROM:+0300',
      'TZOFFSETTO:+0300',
      'END:STANDARD',
      'END:VTIMEZONE',
      'BEGIN:VEVENT',
      'UID:dentist@client.example',
      'DTSTAMP:20260101T000000Z',
      `DTSTART;TZID=Office Time:${basic((today + 4) * DAY_MS + 10 * HOUR_MS)}`,
      `DTEND;TZID=Office Time:${basic((today + 4) * DAY_MS + 11 * HOUR_MS)}`,
      'SUMMARY:Dentist',
      'BEGIN:VALARM',
      'ACTION:DISPLAY',
      'DESCRIPTION:Dentist',
      'TRIGGER:-PT30M',
      'END:VALARM',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
    await withClient(cal.db.url, (c) =>
      c.query(
        `INSERT INTO calendar.events (account_id, product_id, entity_type, entity_id, version, title, all_day,
           starts_at, ends_at, status, visibility, owner_person_id, person_ids, ical_uid, ical, dav_calendar, dav_name)
         VALUES ('acme', 'personal', 'caldav', $1, 1, 'Dentist', false, $2, $3, 'confirmed', 'default', 'alice',
           '{alice}', 'dentist@client.example', $4, 'default', 'dentist.ics')`,
        [
          randomUUID(),
          new Date((today + 4) * DAY_MS + 7 * HOUR_MS),
          new Date((today + 4) * DAY_MS + 8 * HOUR_MS),
          ical,
        ],
      ),
    );
  }, 120_000);

  afterAll(async () => {
    await cal?.close();
  });

  describe('a person feed', () => {
    let feed: Created;
    let first: RawResponse;

    beforeAll(async () => {
      feed = await created('alice', { view: 'person', name: 'Alice — work' });
      first = await feedOf(feed.token);
    });

    it('is created once with its token and address, which are never shown again', async () => {
      expect(feed.token).toMatch(/^ics_[0-9A-Za-z]{12}_[0-9A-Za-z]{40}$/);
      expect(feed.url).toBe(`https://platform.example.test/Calendar/ics/${feed.token}`);
      expect(feed.webcal_url).toBe(`webcal://platform.example.test/Calendar/ics/${feed.token}`);
      expect(feed).toMatchObject({ view: 'person', target: 'alice', name: 'Alice — work' });
      expect(feed.token.startsWith(feed.token_prefix)).toBe(true);
      const again = await create('alice', { view: 'person' });
      expect(again.headers.get('cache-control')).toBe('no-store');
      const listed = await request<Env<{ items: Listed[]; total: number }>>(
        `${cal.base}/Calendar/ics-feeds`,
        {
          headers: await as('alice'),
        },
      );
      expect(listed.body.value.total).toBe(2);
      expect(JSON.stringify(listed.body.value)).not.toContain(feed.token.slice(feed.token_prefix.length));
      expect(listed.body.value.items.map((i) => i.id)).toEqual([again.body.value.id, feed.id]);
      expect(listed.body.value.items[1].last_used_at).not.toBeNull();
      const stored = await withClient(cal.db.url, (c) =>
        c.query<{ token_hash: string }>(`SELECT token_hash FROM calendar.ics_feeds WHERE id = $1`, [feed.id]),
      );
      expect(stored.rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(stored.rows)).not.toContain(feed.token);
    });

    it('answers text/calendar with a strong ETag, no shared caching, CRLF and 75-octet lines', () => {
      expect(first.headers['content-type']).toBe('text/calendar; charset=utf-8');
      expect(first.headers.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
      expect(first.headers['cache-control']).toBe('private, no-cache');
      expect(first.text.endsWith('\r\n')).toBe(true);
      expect(first.text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
      const lines = first.text.split('\r\n').slice(0, -1);
      expect(lines.filter((l) => Buffer.byteLength(l, 'utf8') > 75)).toEqual([]);
      expect(lines.slice(0, 9)).toEqual([
        'BEGIN:VCALENDAR',
        'PRODID:-//Platform//Calendar//EN',
        'VERSION:2.0',
        'CALSCALE:GREGORIAN',
        'METHOD:PUBLISH',
        'X-WR-CALNAME:Alice — work',
        'NAME:Alice — work',
        'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
        'X-PUBLISHED-TTL:PT1H',
      ]);
    });

    it('has a VTIMEZONE for every TZID, DTSTAMPs in UTC and one UID per series', () => {
      const root = parseFeed(first.text);
      const zones = root.getAllSubcomponents('vtimezone').map((z) => String(z.getFirstPropertyValue('tzid')));
      const referenced = [...new Set([...first.text.matchAll(/;TZID=([^;:]+)/g)].map((m) => m[1]))];
      expect(referenced.sort()).toEqual(['Europe/Berlin', 'Office Time']);
      expect(zones.sort()).toEqual(referenced.sort());
      const vevents = root.getAllSubcomponents('vevent');
      for (const v of vevents)
        expect(v.getFirstProperty('dtstamp')?.toICALString()).toMatch(/^DTSTAMP:\d{8}T\d{6}Z$/);
      const masters = vevents
        .filter((v) => !v.hasProperty('recurrence-id'))
        .map((v) => v.getFirstPropertyValue('uid'));
      expect(new Set(masters).size).toBe(masters.length);
      const summaries = vevents
        .filter((v) => !v.hasProperty('recurrence-id'))
        .map((v) => v.getFirstPropertyValue('summary'));
      expect(summaries.sort()).toEqual(['Call with Tokyo', 'Dentist', 'Offsite', 'Weekly sync']);
      // The series and its moved occurrence share their UID; the cancelled one is an EXDATE.
      const series = vevents.filter((v) => v.getFirstPropertyValue('summary') === 'Weekly sync');
      expect(series).toHaveLength(2);
      expect(new Set(series.map((v) => v.getFirstPropertyValue('uid'))).size).toBe(1);
      expect(series[0].getAllProperties('exdate').flatMap((p) => p.getValues())).toHaveLength(2);
      // The CalDAV client's event is its own text: UID, zone and alarm kept.
      const dentist = vevents.find((v) => v.getFirstPropertyValue('summary') === 'Dentist') as ICAL.Component;
      expect(dentist.getFirstPropertyValue('uid')).toBe('dentist@client.example');
      expect(dentist.getAllSubcomponents('valarm')).toHaveLength(1);
      const allDay = vevents.find((v) => v.getFirstPropertyValue('summary') === 'Offsite') as ICAL.Component;
      expect(allDay.getFirstProperty('dtstart')?.toICALString()).toMatch(/^DTSTART;VALUE=DATE:\d{8}$/);
      const utc = vevents.find(
        (v) => v.getFirstPropertyValue('summary') === 'Call with Tokyo',
      ) as ICAL.Component;
      expect(utc.getFirstProperty('dtstart')?.toICALString()).toMatch(/^DTSTART:\d{8}T060000Z$/);
    });

    it('expands the series, across the DST change, to the occurrences the events view shows', async () => {
      const root = parseFeed(first.text);
      const from = Math.floor(Date.now() / DAY_MS) * DAY_MS - 30 * DAY_MS;
      const to = from + 366 * DAY_MS;
      const json = await request<Env<Occurrences>>(
        `${cal.base}/Calendar/events?person=alice&from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}&limit=200`,
        { headers: await as('alice') },
      );
      expect(json.status).toBe(200);
      const expected = json.body.value.items
        .filter((i) => i.series_id)
        .map((i) => new Date(String(i.start.date_time)).toISOString())
        .sort();
      const uid = root
        .getAllSubcomponents('vevent')
        .find((v) => v.getFirstPropertyValue('summary') === 'Weekly sync')
        ?.getFirstPropertyValue('uid') as string;
      expect(expected.length).toBeGreaterThan(25);
      expect(icalOccurrences(root, uid, from, to)).toEqual(expected);
      // Both offsets of Berlin occur among them: the series crosses a change of summer time.
      const hours = new Set(expected.map((s) => new Date(s).getUTCHours()));
      expect([hours.has(7), hours.has(8)]).toEqual([true, true]);
    });

    it('parses with python3-icalendar to the same UIDs, SUMMARYs and starts', () => {
      const py = JSON.parse(
        execFileSync('/usr/bin/python3', ['-c', PYTHON_READ], { input: first.text }).toString('utf8'),
      ) as PythonRead;
      const root = parseFeed(first.text);
      const ours = root.getAllSubcomponents('vevent').map((v) => ({
        uid: String(v.getFirstPropertyValue('uid')),
        summary: String(v.getFirstPropertyValue('summary')),
        recurrenceId: v.hasProperty('recurrence-id'),
      }));
      expect(py.events.map(({ uid, summary, recurrenceId }) => ({ uid, summary, recurrenceId }))).toEqual(
        ours,
      );
      expect(py.zones.sort()).toEqual(['Europe/Berlin', 'Office Time']);
      expect(py.name).toBe('Alice — work');
      // Timed starts are the same instants for both parsers (VTIMEZONEs read the same way).
      const timed = root.getAllSubcomponents('vevent').map((v) => {
        const t = v.getFirstPropertyValue('dtstart') as ICAL.Time;
        return t.isDate ? t.toString() : instantOf(t) / 1000;
      });
      expect(py.events.map((e) => e.start)).toEqual(timed);
    });

    it('answers If-None-Match with 304, and a new ETag once an event changes', async () => {
      const etag = String(first.headers.etag);
      const same = await fetchFeed(feed.token, { 'If-None-Match': etag });
      expect([same.status, same.text, same.headers.etag]).toEqual([304, '', etag]);
      expect((await fetchFeed(feed.token, { 'If-None-Match': `"other", W/${etag}` })).status).toBe(304);
      expect((await fetchFeed(feed.token)).headers.etag).toBe(etag);
      await upsert(
        {
          title: 'Offsite (moved)',
          start: { date: formatWall((Math.floor(Date.now() / DAY_MS) + 11) * DAY_MS).slice(0, 10) },
          owner: 'alice',
        },
        'ALLDAY',
        1,
      );
      const changed = await fetchFeed(feed.token, { 'If-None-Match': etag });
      expect(changed.status).toBe(200);
      expect(changed.headers.etag).not.toBe(etag);
      expect(changed.text).toContain('SUMMARY:Offsite (moved)');
    });
  });

  describe('a team feed', () => {
    let feed: Created;

    beforeAll(async () => {
      feed = await created('alice', { view: 'team', team: 'sales' });
    });

    it("shows a teammate's private event as a busy block, with nothing of its details", async () => {
      const { text } = await feedOf(feed.token);
      for (const leaked of ['Secret merger', 'Initech', 'Lawyers', 'initech']) {
        expect([leaked, text.includes(leaked)]).toEqual([leaked, false]);
      }
      const vevents = parseFeed(text).getAllSubcomponents('vevent');
      const busy = vevents.filter((v) => v.getFirstPropertyValue('summary') === 'Busy');
      expect(busy).toHaveLength(1);
      expect(busy[0].getFirstPropertyValue('class')).toBe('PRIVATE');
      expect(
        busy[0]
          .getAllProperties()
          .map((p) => p.name)
          .sort(),
      ).toEqual(['class', 'dtend', 'dtstamp', 'dtstart', 'status', 'summary', 'transp', 'uid']);
      expect(busy[0].getAllSubcomponents()).toEqual([]);
      expect(busy[0].getFirstProperty('dtstart')?.getParameter('tzid')).toBe('America/New_York');
      const summaries = vevents.map((v) => String(v.getFirstPropertyValue('summary')));
      expect(summaries).toEqual(expect.arrayContaining(['Team lunch', 'Weekly sync', 'Busy']));
      expect(summaries).not.toContain('Carol only');
      const zones = parseFeed(text)
        .getAllSubcomponents('vtimezone')
        .map((z) => z.getFirstPropertyValue('tzid'));
      expect(zones.sort()).toEqual(['America/New_York', 'Asia/Almaty', 'Europe/Berlin', 'Office Time']);
      const py = JSON.parse(
        execFileSync('/usr/bin/python3', ['-c', PYTHON_READ], { input: text }).toString('utf8'),
      ) as PythonRead;
      expect(py.events.map((e) => e.summary).sort()).toEqual(summaries.sort());
    });

    it('is refused for a team its owner is not in, and ends when its owner leaves the team', async () => {
      const denied = await create('alice', { view: 'team', team: 'ops' });
      expect([denied.status, (denied.body.value as unknown as Failure).reason]).toEqual([
        403,
        'CALENDAR_ICS_NOT_TEAM_MEMBER',
      ]);
      await withClient(cal.db.url, (c) =>
        c.query(`DELETE FROM calendar.team_members WHERE team_id = 'sales' AND person_id = 'alice'`),
      );
      expect(refusal(await fetchFeed(feed.token))).toMatchObject({
        status: 404,
        reason: 'CALENDAR_ICS_TOKEN_NOT_FOUND',
      });
      await withClient(cal.db.url, (c) =>
        c.query(
          `INSERT INTO calendar.team_members (account_id, team_id, person_id) VALUES ('acme', 'sales', 'alice')`,
        ),
      );
      expect((await fetchFeed(feed.token)).status).toBe(200);
    });
  });

  it("a resource feed shows the room's bookings, others' private ones as busy", async () => {
    const feed = await created('alice', { view: 'resource', resource: 'room:r-1', name: 'Room 1' });
    expect(feed.target).toBe('room:r-1');
    const summaries = parseFeed((await feedOf(feed.token)).text)
      .getAllSubcomponents('vevent')
      .map((v) => v.getFirstPropertyValue('summary'));
    expect(summaries.sort()).toEqual(['Busy', 'Weekly sync', 'Weekly sync']);
  });

  it('refuses a target of another view, and a blank or unknown view', async () => {
    for (const body of [
      { view: 'person', team: 'sales' },
      { view: 'team' },
      { view: 'resource', resource: 'desk:1' },
      { view: 'everyone' },
      { view: 'person', name: '   ' },
    ]) {
      const res = await create('alice', body);
      expect([JSON.stringify(body), res.status, (res.body.value as unknown as Failure).reason]).toEqual([
        JSON.stringify(body),
        400,
        'VALIDATION_FAILED',
      ]);
    }
  });

  it('bounds the active feeds of one person', async () => {
    for (let i = 0; i < 20; i++) expect((await create('dave', { view: 'person' })).status).toBe(201);
    const full = await create('dave', { view: 'person' });
    expect([full.status, (full.body.value as unknown as Failure).reason]).toEqual([
      409,
      'CALENDAR_ICS_FEED_LIMIT_REACHED',
    ]);
    expect((await create('erin', { view: 'person' })).status).toBe(201);
  });

  describe('revocation and unknown tokens', () => {
    it('answers 404 after a revoke, the same as for an unknown or a malformed token', async () => {
      const feed = await created('alice', { view: 'person' });
      expect((await fetchFeed(feed.token)).status).toBe(200);
      const revoked = await request<Env<Listed & { revoked_at: string }>>(
        `${cal.base}/Calendar/ics-feeds/${feed.id}`,
        { method: 'DELETE', headers: await as('alice') },
      );
      expect(revoked.status).toBe(200);
      expect(revoked.body.value.revoked_at).toBeTruthy();
      const gone = refusal(await fetchFeed(feed.token));
      const unknown = refusal(await fetchFeed(`ics_${'A'.repeat(12)}_${'b'.repeat(40)}`));
      const malformed = refusal(await fetchFeed('not-a-token'));
      const sameId = refusal(
        await fetchFeed(`${feed.token.slice(0, -1)}${feed.token.endsWith('x') ? 'y' : 'x'}`),
      );
      expect(gone).toEqual({
        status: 404,
        type: 'application/json; charset=utf-8',
        reason: 'CALENDAR_ICS_TOKEN_NOT_FOUND',
        error: 'There is no calendar feed at this address: the link is wrong or the feed was revoked.',
      });
      for (const other of [unknown, malformed, sameId]) expect(other).toEqual(gone);
      const listed = await request<Env<{ items: Listed[] }>>(`${cal.base}/Calendar/ics-feeds`, {
        headers: await as('alice'),
      });
      expect(listed.body.value.items.map((i) => i.id)).not.toContain(feed.id);
      // Revoked already: 404, as for any id that is not one of yours.
      const twice = await request<Env>(`${cal.base}/Calendar/ics-feeds/${feed.id}`, {
        method: 'DELETE',
        headers: await as('alice'),
      });
      expect([twice.status, (twice.body.value as unknown as Failure).reason]).toEqual([
        404,
        'CALENDAR_ICS_FEED_NOT_FOUND',
      ]);
    });

    it("answers 404 to a revoke of another person's or another account's feed, which keeps working", async () => {
      const feed = await created('alice', { view: 'person' });
      for (const [subject, account] of [
        ['bob', 'acme'],
        ['alice', 'globex'],
      ]) {
        const res = await request<Env>(`${cal.base}/Calendar/ics-feeds/${feed.id}`, {
          method: 'DELETE',
          headers: await as(subject, account),
        });
        expect([subject, account, res.status, (res.body.value as unknown as Failure).reason]).toEqual([
          subject,
          account,
          404,
          'CALENDAR_ICS_FEED_NOT_FOUND',
        ]);
      }
      const other = await request<Env<{ items: Listed[] }>>(`${cal.base}/Calendar/ics-feeds`, {
        headers: await as('alice', 'globex'),
      });
      expect(other.body.value.items).toEqual([]);
      expect((await fetchFeed(feed.token)).status).toBe(200);
      const malformedId = await request<Env>(`${cal.base}/Calendar/ics-feeds/not-a-uuid`, {
        method: 'DELETE',
        headers: await as('alice'),
      });
      expect(malformedId.status).toBe(404);
    });

    it('answers hostile tokens and bodies with a 4xx in the envelope, never a 5xx', async () => {
      for (const token of [
        '%00',
        '%ff',
        '%C0%AF',
        'a'.repeat(4000),
        encodeURIComponent('😀'.repeat(50)),
        `ics_${'A'.repeat(12)}_${'b'.repeat(40)}%20`,
        `ics_${'A'.repeat(12)}_${'b'.repeat(400)}`,
        encodeURIComponent("' OR 1=1 --"),
        ':token',
      ]) {
        const res = await fetchFeed(token);
        expect([token.slice(0, 40), res.status >= 400 && res.status < 500, res.json?.success]).toEqual([
          token.slice(0, 40),
          true,
          false,
        ]);
      }
      for (const body of [
        '{"view":"person","name":"\\u0000"}',
        '{"view":["person"]}',
        '{"view":"team","team":{"$ne":null}}',
        '{"__proto__":{"view":"person"}}',
        `{"view":"person","name":"${'x'.repeat(5000)}"}`,
        '{"view":"resource","resource":"room:' + 'r'.repeat(500) + '"}',
        'not json',
      ]) {
        const res = await rawRequest(`${cal.base}/Calendar/ics-feeds`, {
          method: 'POST',
          headers: { ...(await as('alice')), 'content-type': 'application/json' },
          body,
        });
        expect([body.slice(0, 40), res.status >= 400 && res.status < 500, res.json?.success]).toEqual([
          body.slice(0, 40),
          true,
          false,
        ]);
      }
    });
  });
});
