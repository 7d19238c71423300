/**
 * The CalDAV client of the bench: the one calendar-query REPORT (RFC 4791 7.8) and the PUT loader,
 * sent the same way to any server. Plain fetch and a hand-written XML body, so what is timed is the
 * server and the bytes on the wire, not a client library.
 */
import { percentile } from '../shared/load';
import type { BenchEvent, TimeRange } from './events';

/** A CalDAV calendar a client can reach: `calendarPath` is the collection's path, with its trailing '/'. */
export interface CaldavEndpoint {
  baseUrl: string;
  calendarPath: string;
  username: string;
  password: string;
}

export interface QueryAnswer {
  status: number;
  ms: number;
  bytes: number;
  /** The <href> of every <response>, decoded. */
  hrefs: string[];
  /** <calendar-data> elements holding a VCALENDAR, and <getetag> elements with a value. */
  calendarData: number;
  etags: number;
}

export interface ReportFigures {
  warmupMs: number;
  medianMs: number;
  p90Ms: number;
  runs: number;
  hrefs: number;
  /** UIDs taken from the hrefs' last segments ('<uid>.ics'), to compare with what should match. */
  uids: Set<string>;
  bytes: number;
}

export interface LoadFigures {
  events: number;
  seconds: number;
  concurrency: number;
}

const authorization = (e: CaldavEndpoint): string =>
  `Basic ${Buffer.from(`${e.username}:${e.password}`).toString('base64')}`;

const utc = (ms: number): string => new Date(ms).toISOString().replace(/[-:]|\.\d{3}/g, '');

export function calendarUrl(e: CaldavEndpoint, name = ''): URL {
  return new URL(`${e.calendarPath}${name}`, e.baseUrl);
}

/** The REPORT body: getetag and calendar-data of every VEVENT overlapping `range`. */
export function calendarQueryBody(range: TimeRange): string {
  return (
    '<?xml version="1.0" encoding="utf-8"?>\n' +
    '<C:calendar-query xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav">\n' +
    '  <D:prop><D:getetag/><C:calendar-data/></D:prop>\n' +
    '  <C:filter>\n' +
    '    <C:comp-filter name="VCALENDAR">\n' +
    '      <C:comp-filter name="VEVENT">\n' +
    `        <C:time-range start="${utc(range.start)}" end="${utc(range.end)}"/>\n` +
    '      </C:comp-filter>\n' +
    '    </C:comp-filter>\n' +
    '  </C:filter>\n' +
    '</C:calendar-query>\n'
  );
}

// Any namespace prefix (or none): servers choose their own.
const element = (local: string) =>
  new RegExp(
    `<(?:[A-Za-z_][\\w.-]*:)?${local}(?:\\s[^>]*)?>([\\s\\S]*?)</(?:[A-Za-z_][\\w.-]*:)?${local}>`,
    'g',
  );
const HREF = element('href');
const CALENDAR_DATA = element('calendar-data');
const GETETAG = element('getetag');
const RESPONSE = element('response');

const unescapeXml = (s: string): string =>
  s.replace(/&(lt|gt|quot|apos|amp);/g, (_, n: string) =>
    n === 'lt' ? '<' : n === 'gt' ? '>' : n === 'quot' ? '"' : n === 'apos' ? "'" : '&',
  );

/** One calendar-query REPORT (Depth: 1), timed from the request to the last byte of the answer. */
export async function calendarQuery(e: CaldavEndpoint, range: TimeRange): Promise<QueryAnswer> {
  const t = performance.now();
  const res = await fetch(calendarUrl(e), {
    method: 'REPORT',
    headers: {
      authorization: authorization(e),
      depth: '1',
      'content-type': 'application/xml; charset=utf-8',
    },
    body: calendarQueryBody(range),
  });
  const text = await res.text();
  const ms = performance.now() - t;
  const hrefs: string[] = [];
  let calendarData = 0;
  let etags = 0;
  for (const r of text.matchAll(RESPONSE)) {
    const href = r[1].match(new RegExp(HREF.source));
    if (href) hrefs.push(decodeURIComponent(unescapeXml(href[1].trim())));
    for (const d of r[1].matchAll(CALENDAR_DATA)) if (d[1].includes('BEGIN:VCALENDAR')) calendarData++;
    for (const g of r[1].matchAll(GETETAG)) if (g[1].trim()) etags++;
  }
  return { status: res.status, ms, bytes: Buffer.byteLength(text), hrefs, calendarData, etags };
}

const uidOf = (href: string): string => (href.split('/').pop() ?? '').replace(/\.ics$/, '');

/**
 * One untimed REPORT first (a server may build caches on it: Radicale parses every item once), then
 * `runs` timed ones, one at a time. Throws on an answer other than 207, on a response without its
 * etag or calendar data, or when the runs disagree on what they return.
 */
export async function measureReport(
  e: CaldavEndpoint,
  range: TimeRange,
  runs: number,
): Promise<ReportFigures> {
  const check = (a: QueryAnswer): QueryAnswer => {
    if (a.status !== 207) throw new Error(`REPORT ${calendarUrl(e).href} answered ${a.status}`);
    if (a.calendarData !== a.hrefs.length || a.etags !== a.hrefs.length)
      throw new Error(
        `REPORT ${calendarUrl(e).href}: ${a.hrefs.length} responses but ${a.calendarData} calendar-data ` +
          `and ${a.etags} getetag`,
      );
    return a;
  };
  const warmup = check(await calendarQuery(e, range));
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const a = check(await calendarQuery(e, range));
    if (a.hrefs.length !== warmup.hrefs.length)
      throw new Error(`REPORT returned ${a.hrefs.length} hrefs, the warm-up ${warmup.hrefs.length}`);
    times.push(a.ms);
  }
  times.sort((a, b) => a - b);
  return {
    warmupMs: warmup.ms,
    medianMs: percentile(times, 0.5),
    p90Ms: percentile(times, 0.9),
    runs,
    hrefs: warmup.hrefs.length,
    uids: new Set(warmup.hrefs.map(uidOf)),
    bytes: warmup.bytes,
  };
}

/**
 * PUTs every event to `${calendarPath}${uid}.ics` with If-None-Match: * (create only), `concurrency`
 * at a time. Throws on any answer but 201/204, naming the first few failures.
 */
export async function loadEvents(
  e: CaldavEndpoint,
  events: readonly BenchEvent[],
  concurrency = 8,
): Promise<LoadFigures> {
  const failures: string[] = [];
  let next = 0;
  const t = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < events.length && failures.length < 5) {
        const ev = events[next++];
        const url = calendarUrl(e, `${encodeURIComponent(ev.uid)}.ics`);
        const res = await fetch(url, {
          method: 'PUT',
          headers: {
            authorization: authorization(e),
            'content-type': 'text/calendar; charset=utf-8',
            'if-none-match': '*',
          },
          body: ev.ics,
        }).catch((err: unknown) => err as Error);
        if (res instanceof Error) failures.push(`PUT ${url.pathname}: ${res.message}`);
        else {
          const body = await res.text();
          if (res.status !== 201 && res.status !== 204)
            failures.push(`PUT ${url.pathname} answered ${res.status}: ${body.slice(0, 200)}`);
        }
      }
    }),
  );
  if (failures.length) throw new Error(`loading events failed:\n  ${failures.join('\n  ')}`);
  return { events: events.length, seconds: (performance.now() - t) / 1000, concurrency };
}
