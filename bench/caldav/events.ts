/**
 * The events of the CalDAV bench (issue 25): the same set for Radicale (written into its storage) and
 * for ours (PUT by `loadEvents`), so both answer the same query over the same data. Deterministic: a
 * seeded PRNG, spread over the year around ANCHOR; about 10% weekly series (COUNT, UNTIL or no end,
 * some on two weekdays or every other week, half with EXDATEs, some of those excluding the very
 * occurrence the query window holds); 20% in Europe/Berlin and 15% in America/New_York (with their
 * VTIMEZONE), the rest in UTC; 60 to 120 minutes each.
 */
import { occurrenceIntervals, type RecurrenceSeries } from '@platform/recurrence';
import { DAY_MS, MINUTE_MS, formatWall, resolveZone } from '@platform/time';

export const EVENT_COUNT = 10_000;
export const EVENT_SEED = 25;
/** Wednesday 2026-07-01: the events fall within half a year either side. */
export const ANCHOR = Date.UTC(2026, 6, 1);

/** [start, end) in epoch ms, as RFC 4791's time-range reads it (start < event end, end > event start). */
export interface TimeRange {
  start: number;
  end: number;
}

/** Monday 2026-07-06 00:00Z to Monday 2026-07-13 00:00Z: the 7 days the bench's REPORT asks for. */
export const QUERY_WINDOW: TimeRange = { start: ANCHOR + 5 * DAY_MS, end: ANCHOR + 12 * DAY_MS };

export interface BenchEvent {
  uid: string;
  /** A VCALENDAR holding this one VEVENT (and the VTIMEZONE its TZID names), CRLF lines. */
  ics: string;
  /** The same times for libs/recurrence, which says which events a time range must return. */
  series: RecurrenceSeries;
}

type ZoneName = 'UTC' | 'Europe/Berlin' | 'America/New_York';

// The rules in force since 1996 (EU) and 2007 (US), which cover every date the bench writes.
const VTIMEZONES: Record<Exclude<ZoneName, 'UTC'>, string[]> = {
  'Europe/Berlin': [
    'BEGIN:VTIMEZONE',
    'TZID:Europe/Berlin',
    'BEGIN:DAYLIGHT',
    'TZOFFSETFROM:+0100',
    'TZOFFSETTO:+0200',
    'TZNAME:CEST',
    'DTSTART:19700329T020000',
    'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
    'END:DAYLIGHT',
    'BEGIN:STANDARD',
    'TZOFFSETFROM:+0200',
    'TZOFFSETTO:+0100',
    'TZNAME:CET',
    'DTSTART:19701025T030000',
    'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
    'END:STANDARD',
    'END:VTIMEZONE',
  ],
  'America/New_York': [
    'BEGIN:VTIMEZONE',
    'TZID:America/New_York',
    'BEGIN:DAYLIGHT',
    'TZOFFSETFROM:-0500',
    'TZOFFSETTO:-0400',
    'TZNAME:EDT',
    'DTSTART:20070311T020000',
    'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
    'END:DAYLIGHT',
    'BEGIN:STANDARD',
    'TZOFFSETFROM:-0400',
    'TZOFFSETTO:-0500',
    'TZNAME:EST',
    'DTSTART:20071104T020000',
    'RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
    'END:STANDARD',
    'END:VTIMEZONE',
  ],
};

const ICAL_DAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];
const TOPICS = ['Planning', 'Review', 'Standup', 'Customer call', 'Workshop', 'Interview', 'Training'];
const ROOMS = ['Room A', 'Room B', 'Board room', 'Online', 'Cafeteria'];

/** mulberry32: small, fast and the same on every machine, which is all a fixture needs. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 'YYYYMMDDTHHMMSS' of a wall time (or of an instant read as UTC). */
const basic = (ms: number): string => formatWall(ms).replace(/[-:]/g, '');

/** RFC 5545 3.1: lines of at most 75 octets, continued after CRLF + space (the text here is ASCII). */
function fold(line: string): string {
  if (line.length <= 75) return line;
  const parts = [line.slice(0, 75)];
  for (let i = 75; i < line.length; i += 74) parts.push(` ${line.slice(i, i + 74)}`);
  return parts.join('\r\n');
}

function dateTimeLine(name: string, wallMs: number, zone: ZoneName): string {
  return zone === 'UTC' ? `${name}:${basic(wallMs)}Z` : `${name};TZID=${zone}:${basic(wallMs)}`;
}

function seriesTime(wallMs: number, zone: ZoneName): { dateTime: string; timeZone?: string } {
  return zone === 'UTC'
    ? { dateTime: `${formatWall(wallMs)}Z` }
    : { dateTime: formatWall(wallMs), timeZone: zone };
}

/** The bench's events, the same list for the same arguments. */
export function benchEvents(count = EVENT_COUNT, seed = EVENT_SEED): BenchEvent[] {
  const random = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const events: BenchEvent[] = [];
  for (let i = 0; i < count; i++) {
    const z = random();
    const zone: ZoneName = z < 0.2 ? 'Europe/Berlin' : z < 0.35 ? 'America/New_York' : 'UTC';
    const day = Math.floor(random() * 365) - 182;
    // 07:00 to 19:00 local on the quarter hour: never across a DST change (those are at 02:00-03:00).
    const startWall = ANCHOR + day * DAY_MS + (7 * 60 + Math.floor(random() * 49) * 15) * MINUTE_MS;
    const minutes = (4 + Math.floor(random() * 5)) * 15;
    const endWall = startWall + minutes * MINUTE_MS;
    const uid = `caldav-bench-${String(i).padStart(5, '0')}-${Math.floor(random() * 0xffffffff)
      .toString(16)
      .padStart(8, '0')}`;
    const rules: string[] = random() < 0.1 ? weeklyRules(random, zone, startWall, minutes) : [];
    const topic = pick(TOPICS);
    const vevent = [
      'BEGIN:VEVENT',
      `UID:${uid}`,
      'DTSTAMP:20260101T000000Z',
      dateTimeLine('DTSTART', startWall, zone),
      dateTimeLine('DTEND', endWall, zone),
      ...rules,
      `SUMMARY:${topic} ${i}`,
      `LOCATION:${pick(ROOMS)}`,
      `DESCRIPTION:${topic} number ${i} of the CalDAV bench: agenda\\, notes and the dial-in ` +
        `details that a real invitation carries in its description text.`,
      'END:VEVENT',
    ];
    const lines = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//platform//caldav-bench//EN',
      ...(zone === 'UTC' ? [] : VTIMEZONES[zone]),
      ...vevent,
      'END:VCALENDAR',
    ];
    events.push({
      uid,
      ics: `${lines.map(fold).join('\r\n')}\r\n`,
      series: {
        start: seriesTime(startWall, zone),
        end: seriesTime(endWall, zone),
        lines: rules,
      },
    });
  }
  return events;
}

/** RRULE and EXDATE lines of a weekly series starting at `startWall` (local to `zone`). */
function weeklyRules(random: () => number, zone: ZoneName, startWall: number, minutes: number): string[] {
  const tz = resolveZone(zone);
  if (!tz) throw new Error(`the runtime does not know ${zone}`);
  const interval = random() < 0.25 ? 2 : 1;
  const weekday = new Date(startWall).getUTCDay();
  // DTSTART's weekday is always in BYDAY: RFC 5545 counts DTSTART as the first occurrence, dateutil
  // (Radicale) does not when the rule would not produce it.
  const byday = random() < 0.2 ? `;BYDAY=${ICAL_DAYS[weekday]},${ICAL_DAYS[(weekday + 3) % 7]}` : '';
  const weeks = 8 + Math.floor(random() * 45);
  const e = random();
  const end =
    e < 0.45
      ? `;COUNT=${weeks}`
      : e < 0.9
        ? `;UNTIL=${basic(tz.toInstant(startWall + weeks * 7 * DAY_MS))}Z`
        : '';
  const lines = [`RRULE:FREQ=WEEKLY${interval === 2 ? ';INTERVAL=2' : ''}${byday}${end}`];
  const step = 7 * interval * DAY_MS;
  const excluded = new Set<number>();
  if (random() < 0.5) {
    const n = 1 + Math.floor(random() * 2);
    for (let k = 0; k < n; k++) excluded.add(startWall + (1 + Math.floor(random() * 12)) * step);
  }
  // The occurrence (of DTSTART's weekday) inside the query window, excluded now and then so that a
  // server has to apply EXDATE to answer right, not only the series' overall span.
  for (let wall = startWall; wall < QUERY_WINDOW.end + DAY_MS; wall += step) {
    const at = tz.toInstant(wall);
    if (at < QUERY_WINDOW.end && at + minutes * MINUTE_MS > QUERY_WINDOW.start) {
      if (random() < 0.3) excluded.add(wall);
      break;
    }
  }
  if (excluded.size) {
    const values = [...excluded].sort((a, b) => a - b).map((w) => basic(w) + (zone === 'UTC' ? 'Z' : ''));
    lines.push(`EXDATE${zone === 'UTC' ? '' : `;TZID=${zone}`}:${values.join(',')}`);
  }
  return lines;
}

/** UIDs of the events with an occurrence overlapping `range`: what a calendar-query must return. */
export function matchingUids(events: readonly BenchEvent[], range: TimeRange): Set<string> {
  const uids = new Set<string>();
  for (const e of events) {
    const next = occurrenceIntervals(e.series, { from: range.start, to: range.end }).next();
    if (!next.done) uids.add(e.uid);
  }
  return uids;
}
