import ICAL from 'ical.js';
import { DomainError } from '@platform/envelope';
import { MAX_MS, MIN_MS, canonicalTimeZone, isIanaTimeZone, resolveZone, type Zone } from '@platform/time';
import type {
  EventStatus,
  EventVisibility,
  StoredOverride,
  StoredTime,
} from '../events/calendar-event.entity';
import type { EventFields } from '../events/event.mapper';
import { foldContentLines } from '../ical/ical-writer';
import { occurrenceIntervals } from '@platform/recurrence';
import {
  assertValidSeries,
  compileStored,
  floatingZoneOf,
  seriesEndOf,
  type SeriesColumns,
} from '../recurrence/event-series';
import { DavError, davError } from './dav.errors';

/**
 * A CalDAV client's calendar object resource (RFC 4791 4.1) read into the columns every view, free/busy
 * query and time-range filter works from. The text itself is kept as ical.js re-serialises it (CRLF,
 * folded), with every property the client sent (VALARM, ATTENDEE, X-...): it is what CalDAV serves back.
 *
 * Times: a TZID that names an IANA zone (also behind a `/mozilla.org/.../Europe/Berlin` prefix or in
 * X-LIC-LOCATION) is computed with the calendar's own zone data, as every other event is; any other
 * TZID (Outlook's "W. Europe Standard Time") is placed by the resource's own VTIMEZONE, and the event is
 * stored in UTC (its recurrence then follows UTC in the views; the served text is unchanged).
 */

export interface DavObject {
  uid: string;
  fields: EventFields;
  ical: string;
}

const LIMITS = { title: 500, description: 10_000, location: 1_000 } as const;
const SUPPORTED = new Set(['vevent', 'vtimezone']);
const UNSUPPORTED = new Set(['vtodo', 'vjournal', 'vfreebusy', 'vavailability']);

const invalid = (reason: string) => davError(DavError.INVALID_CALENDAR_DATA, { reason }, { detail: reason });

/** Where a TZID's wall times are: a zone of ours, or the client's VTIMEZONE (read by ical.js). */
type Placement = { kind: 'iana'; name: string; zone: Zone } | { kind: 'vtimezone'; tz: ICAL.Timezone };

function ianaName(tzid: string): string | null {
  const candidates = [tzid, tzid.split('/').slice(-2).join('/'), tzid.split('/').slice(-3).join('/')];
  for (const c of candidates) {
    if (isIanaTimeZone(c)) {
      const name = canonicalTimeZone(c);
      if (name && resolveZone(name)) return name;
    }
  }
  return null;
}

class Zones {
  private readonly placed = new Map<string, Placement>();

  constructor(root: ICAL.Component) {
    for (const vtz of root.getAllSubcomponents('vtimezone')) {
      const tzid = vtz.getFirstPropertyValue('tzid');
      if (typeof tzid !== 'string' || !tzid) throw invalid('VTIMEZONE without TZID');
      const location = vtz.getFirstPropertyValue('x-lic-location');
      const name = ianaName(tzid) ?? (typeof location === 'string' ? ianaName(location) : null);
      if (name) this.placed.set(tzid, { kind: 'iana', name, zone: resolveZone(name) as Zone });
      else this.placed.set(tzid, { kind: 'vtimezone', tz: new ICAL.Timezone(vtz) });
    }
  }

  of(tzid: string): Placement {
    const known = this.placed.get(tzid);
    if (known) return known;
    const name = ianaName(tzid);
    if (!name) throw invalid(`TZID ${tzid} has no VTIMEZONE and names no known zone`);
    const p: Placement = { kind: 'iana', name, zone: resolveZone(name) as Zone };
    this.placed.set(tzid, p);
    return p;
  }
}

/** A DATE or DATE-TIME value as the calendar stores times. */
interface ReadTime {
  date?: string;
  instant?: number;
  /** The IANA zone of a TZID'd date-time, when it names one. */
  zone?: string;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function readTime(prop: ICAL.Property, zones: Zones): ReadTime {
  const value = prop.getFirstValue() as unknown;
  if (!(value instanceof ICAL.Time)) throw invalid(`${prop.name.toUpperCase()} is not a date or date-time`);
  const t = value;
  if (t.year < 1 || t.year > 9999) throw invalid(`${prop.name.toUpperCase()} is out of range`);
  const date = `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}`;
  if (t.isDate) return { date };
  const wall = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
  const tzid = prop.getParameter('tzid');
  const utc = t.zone === ICAL.Timezone.utcTimezone || /Z$/i.test(String(prop.toICALString()));
  let instant: number;
  let zone: string | undefined;
  if (utc || typeof tzid !== 'string' || !tzid)
    instant = wall; // UTC, or floating: read as UTC
  else {
    const p = zones.of(tzid);
    if (p.kind === 'iana') {
      instant = p.zone.toInstant(wall);
      zone = p.name;
    } else {
      const copy = t.clone();
      copy.zone = p.tz;
      instant = copy.toUnixTime() * 1000;
    }
  }
  if (!Number.isFinite(instant) || instant < MIN_MS || instant > MAX_MS) {
    throw invalid(`${prop.name.toUpperCase()} is out of range`);
  }
  return { instant, ...(zone ? { zone } : {}) };
}

const utcStamp = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/**
 * RRULE, RDATE and EXDATE as the stored lines: TZIDs of our zones by their canonical name, values in
 * any other TZID converted to UTC (so the engine reads every line the client meant).
 */
function recurrenceLines(master: ICAL.Component, zones: Zones): string[] {
  const lines: string[] = [];
  for (const prop of master.getAllProperties()) {
    const name = prop.name.toLowerCase();
    if (name === 'rrule') lines.push(prop.toICALString());
    if (name !== 'rdate' && name !== 'exdate') continue;
    const tzid = prop.getParameter('tzid');
    const valueType = prop.type;
    if (typeof tzid !== 'string' || !tzid || valueType !== 'date-time') {
      lines.push(prop.toICALString());
      continue;
    }
    const p = zones.of(tzid);
    if (p.kind === 'iana') {
      const copy = ICAL.Property.fromString(prop.toICALString());
      copy.setParameter('tzid', p.name);
      lines.push(copy.toICALString());
      continue;
    }
    const values = prop.getValues().map((v) => {
      const t = (v as ICAL.Time).clone();
      t.zone = p.tz;
      return utcStamp(t.toUnixTime() * 1000);
    });
    lines.push(`${name.toUpperCase()}:${values.join(',')}`);
  }
  return lines;
}

function text(c: ICAL.Component, prop: string, max: number): string | null {
  const v = c.getFirstPropertyValue(prop);
  if (v === null || v === undefined) return null;
  const s = String(v);
  const points = Array.from(s);
  return points.length > max ? points.slice(0, max).join('') : s;
}

function statusOf(c: ICAL.Component): EventStatus {
  const s = String(c.getFirstPropertyValue('status') ?? '').toUpperCase();
  return s === 'TENTATIVE' ? 'tentative' : s === 'CANCELLED' ? 'cancelled' : 'confirmed';
}

function visibilityOf(c: ICAL.Component): EventVisibility {
  const s = String(c.getFirstPropertyValue('class') ?? '').toUpperCase();
  return s === 'PUBLIC'
    ? 'public'
    : s === 'PRIVATE'
      ? 'private'
      : s === 'CONFIDENTIAL'
        ? 'confidential'
        : 'default';
}

const DAY_MS = 86_400_000;
const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** DTSTART and DTEND of the master as columns. */
type Span = Omit<SeriesColumns, 'recurrence' | 'recurrenceOverrides'>;

/** DTSTART and DTEND (or DURATION; neither: a day for a date, an instant for a date-time). */
function spanOf(c: ICAL.Component, zones: Zones): Span {
  const startProp = c.getFirstProperty('dtstart');
  if (!startProp) throw invalid('VEVENT without DTSTART');
  const start = readTime(startProp, zones);
  const endProp = c.getFirstProperty('dtend');
  const duration = c.getFirstPropertyValue('duration') as unknown;
  if (start.date) {
    let endDate = addDays(start.date, 1);
    if (endProp) {
      const end = readTime(endProp, zones);
      if (!end.date) throw invalid('DTEND of an all-day event is not a date');
      endDate = end.date;
    } else if (duration instanceof ICAL.Duration) {
      endDate = addDays(start.date, Math.max(1, Math.floor(duration.toSeconds() / 86_400)));
    }
    if (endDate < start.date) throw invalid('DTEND is before DTSTART');
    if (endDate > '9999-12-31') throw invalid('DTEND is out of range');
    return {
      allDay: true,
      startDate: start.date,
      endDate: endDate === start.date ? addDays(start.date, 1) : endDate,
      startsAt: null,
      endsAt: null,
      timeZone: null,
    };
  }
  const startsAt = start.instant as number;
  let endsAt = startsAt;
  if (endProp) {
    const end = readTime(endProp, zones);
    if (end.instant === undefined) throw invalid('DTEND of a timed event is a date');
    endsAt = end.instant;
  } else if (duration instanceof ICAL.Duration) endsAt = startsAt + duration.toSeconds() * 1000;
  if (endsAt < startsAt) throw invalid('DTEND is before DTSTART');
  if (endsAt > MAX_MS) throw invalid('DTEND is out of range');
  return {
    allDay: false,
    startsAt: new Date(startsAt),
    endsAt: new Date(endsAt),
    startDate: null,
    endDate: null,
    timeZone: start.zone ?? null,
  };
}

function storedTime(t: ReadTime): StoredTime {
  if (t.date) return { date: t.date };
  return { date_time: new Date(t.instant as number).toISOString(), ...(t.zone ? { time_zone: t.zone } : {}) };
}

/** A RECURRENCE-ID as the engine names occurrences: 'YYYY-MM-DDTHH:mm:ssZ', or the date. */
function recurrenceIdOf(c: ICAL.Component, zones: Zones): string {
  const rid = readTime(c.getFirstProperty('recurrence-id') as ICAL.Property, zones);
  return rid.date ?? new Date(rid.instant as number).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The overriding VEVENTs of a stored resource by their recurrence id (for `<C:expand>`). */
export function recurrenceIdKeys(root: ICAL.Component): Map<string, ICAL.Component> {
  const zones = new Zones(root);
  const out = new Map<string, ICAL.Component>();
  for (const v of root.getAllSubcomponents('vevent')) {
    if (!v.hasProperty('recurrence-id')) continue;
    try {
      out.set(recurrenceIdOf(v, zones), v);
    } catch {
      // Stored text was checked when written; one that no longer reads is served as the master's.
    }
  }
  return out;
}

function overrideOf(c: ICAL.Component, zones: Zones): StoredOverride {
  const recurrenceId = recurrenceIdOf(c, zones);
  if (statusOf(c) === 'cancelled') return { recurrence_id: recurrenceId, cancelled: true };
  const startProp = c.getFirstProperty('dtstart');
  const endProp = c.getFirstProperty('dtend');
  return {
    recurrence_id: recurrenceId,
    ...(startProp ? { start: storedTime(readTime(startProp, zones)) } : {}),
    ...(endProp ? { end: storedTime(readTime(endProp, zones)) } : {}),
  };
}

/**
 * A single RRULE with COUNT as the same rule with UNTIL at its last instance (the same set: EXDATEs
 * apply after COUNT either way), so a time range seeks to its window instead of counting from DTSTART.
 * Only the stored lines change: the served text keeps the client's COUNT.
 */
function countAsUntil(series: SeriesColumns): string[] {
  const rules = series.recurrence.filter((l) => /^RRULE[;:]/i.test(l));
  // All-day series keep COUNT: their UNTIL would be a date in the floating zone.
  if (series.allDay || rules.length !== 1 || !/[;:]COUNT=\d+/i.test(rules[0])) return series.recurrence;
  let last: number | null = null;
  try {
    const c = compileStored({ ...series, recurrence: rules, recurrenceOverrides: [] });
    let n = 0;
    for (const iv of occurrenceIntervals(c, {
      from: MIN_MS + 86_400_000,
      to: MAX_MS,
      floatingTimeZone: floatingZoneOf(series),
    })) {
      last = iv.start;
      if (++n > 5_000) return series.recurrence;
    }
  } catch {
    return series.recurrence;
  }
  if (last === null) return series.recurrence;
  const colon = rules[0].indexOf(':');
  const parts = rules[0]
    .slice(colon + 1)
    .split(';')
    .filter((p) => p && !/^COUNT=/i.test(p));
  const line = `${rules[0].slice(0, colon)}:${[...parts, `UNTIL=${utcStamp(last)}`].join(';')}`;
  return series.recurrence.map((l) => (l === rules[0] ? line : l));
}

/** Applies the calendar's own date window to the fields (years 1..9999 as instants too). */
function fieldsOf(
  master: ICAL.Component,
  overrides: ICAL.Component[],
  zones: Zones,
  owner: string,
): EventFields {
  const span = spanOf(master, zones);
  const midnight = (date: string) => new Date(`${date}T00:00:00Z`);
  const recurrence = recurrenceLines(master, zones);
  const recurrenceOverrides = overrides.map((o) => overrideOf(o, zones));
  const series = {
    ...span,
    startsAt: span.allDay ? midnight(span.startDate as string) : span.startsAt,
    endsAt: span.allDay ? midnight(span.endDate as string) : span.endsAt,
    recurrence,
    recurrenceOverrides,
  };
  try {
    assertValidSeries(series);
  } catch (e) {
    const details = (e as { details?: { recurrence?: { reason?: string; part?: string } } }).details;
    const why = details?.recurrence;
    throw invalid(`recurrence: ${why?.reason ?? 'invalid'}${why?.part ? ` (${why.part})` : ''}`);
  }
  const indexed = { ...series, recurrence: countAsUntil(series) };
  return {
    title: text(master, 'summary', LIMITS.title),
    description: text(master, 'description', LIMITS.description),
    location: text(master, 'location', LIMITS.location),
    ...indexed,
    seriesEndsAt: seriesEndOf(indexed),
    status: statusOf(master),
    visibility: visibilityOf(master),
    transparency:
      String(master.getFirstPropertyValue('transp') ?? '').toUpperCase() === 'TRANSPARENT'
        ? 'transparent'
        : 'opaque',
    ownerPersonId: owner,
    assigneeIds: [],
    personIds: [owner],
    resources: [],
    resourceIds: [],
    metadata: {},
  };
}

/** A DATE or DATE-TIME as ical.js keeps the text: `2026-12-01`, `2026-12-01T10:00:00`, with `Z`. */
const WRITTEN_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})Z?)?$/;

/**
 * RFC 5545 3.3.4 and 3.3.5: months 01-12, days that exist in their month, hours 00-23, minutes 00-59,
 * seconds 00-60. ical.js rolls any other value over (20261332T250000 is read as 2027-02-02T01:00) and
 * writes the text back as sent, so the stored times and the served text would disagree.
 */
function isRealTime(written: unknown): boolean {
  const m = typeof written === 'string' ? WRITTEN_TIME.exec(written) : null;
  if (!m) return true; // another shape: ical.js's own decoding has already judged it
  const [y, mo, d, h, mi, sec] = m.slice(1).map((x) => (x === undefined ? 0 : Number(x)));
  if (mo < 1 || mo > 12 || d < 1 || d > ICAL.Time.daysInMonth(mo, y)) return false;
  return h <= 23 && mi <= 59 && sec <= 60;
}

/**
 * Every property value of a component and its subcomponents, decoded (ical.js decodes on first read),
 * and every DATE and DATE-TIME checked as written.
 */
function decodeAll(c: ICAL.Component): void {
  const pending = [c];
  for (let next = pending.pop(); next; next = pending.pop()) {
    for (const p of next.getAllProperties()) {
      p.getValues();
      if (p.type !== 'date' && p.type !== 'date-time') continue;
      const bad = (p.jCal.slice(3) as unknown[]).find((v) => !isRealTime(v));
      if (bad !== undefined)
        throw invalid(`${p.name.toUpperCase()} ${String(bad).slice(0, 40)} is not a real date or time`);
    }
    pending.push(...next.getAllSubcomponents());
  }
}

/** The client's text as one VCALENDAR of VEVENTs sharing one UID (and VTIMEZONEs), read into columns. */
/**
 * The shape a resource may have, checked on the raw lines before ical.js builds anything: what a real
 * client writes stays far below, and a resource near these bounds is still cheap to parse, store,
 * expand and put in a feed (60,000 properties or 100,000 parameters in one event, each under 1 MiB,
 * once exhausted the heap when a feed rendered them).
 */
export const ICAL_LIMITS = {
  depth: 8,
  components: 2_000,
  propertiesPerComponent: 1_000,
  parameters: 100,
} as const;

function assertShape(body: string): void {
  const lines = body.replace(/\r?\n[ \t]/g, '').split(/\r?\n/);
  let depth = 0;
  let components = 0;
  const counts: number[] = [];
  for (const line of lines) {
    if (/^BEGIN:/i.test(line)) {
      if (++depth > ICAL_LIMITS.depth) throw invalid(`components nested deeper than ${ICAL_LIMITS.depth}`);
      if (++components > ICAL_LIMITS.components)
        throw invalid(`more than ${ICAL_LIMITS.components} components`);
      counts.push(0);
    } else if (/^END:/i.test(line)) {
      depth = Math.max(0, depth - 1);
      counts.pop();
    } else if (line) {
      if (counts.length && ++counts[counts.length - 1] > ICAL_LIMITS.propertiesPerComponent) {
        throw invalid(`more than ${ICAL_LIMITS.propertiesPerComponent} properties in one component`);
      }
      const colon = line.indexOf(':');
      const head = colon < 0 ? line : line.slice(0, colon);
      let params = 0;
      for (let i = 0; i < head.length; i++)
        if (head.charCodeAt(i) === 59 /* ; */ && ++params > ICAL_LIMITS.parameters) {
          throw invalid(`more than ${ICAL_LIMITS.parameters} parameters on one property`);
        }
    }
  }
}

export function readCalendarObject(body: string, owner: string): DavObject {
  if (body.includes('\u0000')) throw invalid('NUL character');
  assertShape(body);
  let root: ICAL.Component;
  try {
    const parsed: unknown = ICAL.parse(body.replace(/^\uFEFF/, ''));
    if (!Array.isArray(parsed) || typeof parsed[0] !== 'string') throw invalid('one VCALENDAR expected');
    root = new ICAL.Component(parsed as unknown[]);
    // ical.js decodes a value when it is first read and writes the text only when asked: a malformed
    // value (DTSTART:tomorrow, a five-digit year) or a property named like an Object member (CONSTRUCTOR,
    // looked up in ical.js's design tables) throws there, a plain Error that would answer 500. Done
    // once here, where such a failure means "not iCalendar"; later reads get the decoded values.
    decodeAll(root);
    root.toString();
  } catch (e) {
    if (e instanceof DomainError) throw e;
    throw invalid(`not iCalendar: ${(e as Error).message.slice(0, 200)}`);
  }
  if (root.name !== 'vcalendar') throw invalid('one VCALENDAR expected');
  const components = root.getAllSubcomponents();
  for (const c of components) {
    if (UNSUPPORTED.has(c.name)) {
      throw davError(DavError.UNSUPPORTED_COMPONENT, { component: c.name.toUpperCase() });
    }
    if (!SUPPORTED.has(c.name) && !c.name.startsWith('x-'))
      throw invalid(`component ${c.name.toUpperCase()}`);
  }
  const vevents = root.getAllSubcomponents('vevent');
  if (!vevents.length) throw invalid('no VEVENT');
  const uids = new Set(vevents.map((v) => v.getFirstPropertyValue('uid')));
  if (uids.size !== 1) throw invalid('the VEVENTs of one resource have more than one UID');
  const [uid] = uids;
  if (typeof uid !== 'string' || !uid.trim()) throw invalid('VEVENT without UID');
  if (Array.from(uid).length > 255) throw invalid('UID longer than 255 characters');
  const masters = vevents.filter((v) => !v.hasProperty('recurrence-id'));
  if (masters.length > 1) throw invalid('more than one VEVENT without RECURRENCE-ID');
  const zones = new Zones(root);
  const master = masters[0] ?? vevents[0];
  const overrides = vevents.filter((v) => v !== master && v.hasProperty('recurrence-id'));
  const ids = new Set<string>();
  for (const o of overrides) {
    const key = String(o.getFirstProperty('recurrence-id')?.toICALString());
    if (ids.has(key)) throw invalid('two VEVENTs with the same RECURRENCE-ID');
    ids.add(key);
  }
  const fields = fieldsOf(master, masters.length ? overrides : [], zones, owner);
  return { uid, fields, ical: foldContentLines(root.toString()) };
}
