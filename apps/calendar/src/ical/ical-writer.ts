import ICAL from 'ical.js';
import { DAY_MS, canonicalTimeZone, formatWall, resolveZone, type Zone } from '@platform/time';
import { RecurrenceError, expandRecurrence, type CompiledRecurrence } from '@platform/recurrence';
import type { EventViewSource } from '../events/event.mapper';
import type { StoredOverride, StoredTime } from '../events/calendar-event.entity';
import { compileStored } from '../recurrence/event-series';
import { vtimezone, zoneOfTzid } from './vtimezone';

/**
 * The calendar's events as iCalendar (RFC 5545), for the ICS subscription feed and CalDAV: a stored
 * event row in, VEVENTs and whole VCALENDAR texts out. Pure: no I/O, no clock unless `now` is left out
 * (DTSTAMP then comes from `updatedAt`, so the same rows give the same bytes and a body hash is an ETag).
 *
 * How the columns map (documented in docs/ics-feed.md):
 * - UID: `icalUid` (what a CalDAV client chose) or the event id; one UID per series, its moved
 *   occurrences are VEVENTs with the same UID and a RECURRENCE-ID.
 * - SEQUENCE: `version - 1` (the first version is 1, iCalendar's first sequence 0); CREATED and
 *   LAST-MODIFIED from `createdAt`/`updatedAt`, DTSTAMP from `now` or `updatedAt`, all in UTC.
 * - DTSTART/DTEND: `VALUE=DATE` for all-day events (end exclusive, as stored); timed events with
 *   `TZID=<IANA zone>` in that zone's wall time, or UTC (`Z`) when the event has no zone (or UTC).
 *   RRULE/RDATE/EXDATE lines are rewritten into DTSTART's form (same TZID or Z, DATE for all-day
 *   series): a floating time gets the series zone, an `EXDATE;VALUE=DATE` on a timed series becomes
 *   the occurrences of that day, as the recurrence engine reads them, so every client expands the
 *   series to the occurrences our own views show. A series the engine refuses is written as its first
 *   occurrence alone, as the JSON views show it.
 * - Overrides: a cancelled one is an EXDATE of the master; a moved one (whose RECURRENCE-ID is an
 *   occurrence of the series) its own VEVENT.
 * - STATUS from status, CLASS from visibility (`default` writes none), TRANSP from transparency.
 * - ORGANIZER: the owner person, `urn:x-calendar:person:<id>` (people are ids here, not addresses);
 *   ATTENDEE: invited people the same way, email guests as `mailto:`, with ROLE, PARTSTAT and CN.
 * - CONFERENCE (RFC 7986): `CONFERENCE;VALUE=URI;FEATURE=VIDEO;LABEL=<provider>:<url>`.
 * - The product's identity and data as X- properties: X-CALENDAR-PRODUCT, X-CALENDAR-ENTITY-TYPE,
 *   X-CALENDAR-ENTITY-ID, X-CALENDAR-ASSIGNEE (one per assignee), X-CALENDAR-RESOURCE (`<type>:<id>`,
 *   one per resource), X-CALENDAR-METADATA (the metadata map as JSON text).
 * - busyOnly (someone else's private event): SUMMARY `Busy`, CLASS:PRIVATE, only the time properties
 *   (DTSTART, DTEND, DURATION, RRULE, RDATE, EXDATE, RECURRENCE-ID), UID and TRANSP; STATUS TENTATIVE
 *   or CONFIRMED (as the JSON busy block's free_busy); DTSTAMP from `now`, else the event's start (not
 *   `updatedAt`: a busy block must not change when only hidden fields do); no description, location,
 *   people, conference, product data, alarms, CREATED/LAST-MODIFIED or SEQUENCE.
 * - An event a CalDAV client stored as iCalendar text (`ical`) is that text: its VEVENTs as stored
 *   (redacted the same way for busyOnly), its VTIMEZONEs reused for TZIDs that name no IANA zone.
 *
 * Lines end in CRLF and are folded at 75 octets, continuation lines included, never inside a UTF-8
 * sequence (ical.js counts a continuation's content only, so its output is refolded here).
 */

export type IcalSource = EventViewSource & { ical?: string | null; icalUid?: string | null };

export interface RenderOptions {
  busyOnly?: boolean;
  now?: Date;
}

export const PRODID = '-//Platform//Calendar//EN';
/** The cal-address of a person of the account: people have ids, not email addresses. */
export const personUri = (id: string) => `urn:x-calendar:person:${id}`;

export function eventUid(e: IcalSource): string {
  return e.icalUid ?? e.id;
}

// ---------------------------------------------------------------------------------------------------
// Times

/** How a series writes its times: in a zone (TZID) or in UTC. */
interface TimeForm {
  /** null: UTC, written with `Z`. */
  tzid: string | null;
  zone: Zone;
}

const UTC_FORM: TimeForm = { tzid: null, zone: resolveZone('UTC') as Zone };

/** The form of an event's or override's zone: its canonical IANA name, UTC for none or a UTC name. */
function formOf(timeZone: string | null | undefined): TimeForm {
  if (!timeZone) return UTC_FORM;
  const zone = resolveZone(timeZone);
  if (!zone || (zone.fixed && zone.offsetAt(0) === 0)) return UTC_FORM;
  return { tzid: canonicalTimeZone(timeZone) ?? timeZone, zone };
}

/** jCal date-time text of an instant in the form ('2026-12-07T09:00:00', or with 'Z'). */
function wallText(instantMs: number, f: TimeForm): string {
  const s = Math.floor(instantMs / 1000) * 1000;
  return f.tzid ? formatWall(s + f.zone.offsetAt(s)) : `${formatWall(s)}Z`;
}

function timeProperty(name: string, instantMs: number, f: TimeForm): ICAL.Property {
  const p = new ICAL.Property(name);
  if (f.tzid) p.setParameter('tzid', f.tzid);
  p.setValue(ICAL.Time.fromDateTimeString(wallText(instantMs, f)));
  return p;
}

function dateProperty(name: string, date: string): ICAL.Property {
  const p = new ICAL.Property(name);
  p.setValue(ICAL.Time.fromDateString(date));
  return p;
}

const utcProperty = (name: string, at: Date) => timeProperty(name, at.getTime(), UTC_FORM);

const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
const dayNumber = (date: string) => Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);

/** An instant a stored time names: `date_time` carries its offset (the DTO insists on one). */
function instantOf(t: StoredTime): number | null {
  if (!t.date_time) return null;
  const ms = Date.parse(t.date_time);
  return Number.isNaN(ms) ? null : ms;
}

/** A RECURRENCE-ID as stored: an instant, a wall time in the series zone (engine's reading), a date. */
function ridInstant(rid: string, f: TimeForm): number | null {
  if (/[zZ]$|[+-]\d{2}:?\d{2}$/.test(rid)) {
    const ms = Date.parse(rid);
    return Number.isNaN(ms) ? null : ms;
  }
  const wall = Date.parse(`${rid}Z`);
  return Number.isNaN(wall) ? null : f.zone.toInstant(wall);
}

// ---------------------------------------------------------------------------------------------------
// Recurrence lines

/** jCal wall text ('YYYY-MM-DDTHH:MM:SS[Z]') as wall milliseconds and whether it is UTC. */
function parseJcalDateTime(s: string): { wallMs: number; utc: boolean } | null {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(Z?)$/.exec(s);
  if (!m) return null;
  const wallMs = Date.parse(`${m[1]}Z`);
  return Number.isNaN(wallMs) ? null : { wallMs, utc: m[2] === 'Z' };
}

/** Upper-cases a stored line's name, parameter names and value (not parameter values: TZID). */
function normaliseLine(line: string): string {
  const text = line.replace(/\r?\n[ \t]/g, '');
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') quoted = !quoted;
    else if (text[i] === ':' && !quoted) {
      const head = text
        .slice(0, i)
        .replace(/(^|;)([^=;]+)/g, (_m, sep: string, n: string) => sep + n.toUpperCase());
      return `${head}:${text.slice(i + 1).toUpperCase()}`;
    }
  }
  return text;
}

interface Series {
  e: IcalSource;
  form: TimeForm;
  allDay: boolean;
  /** Compiled by the engine, or null when it refuses the series (written as a single event then). */
  compiled: CompiledRecurrence | null;
  /** The series without overrides: which occurrences exist (an override must name one). */
  members: CompiledRecurrence | null;
  /** Without overrides and date EXDATEs: which occurrences an `EXDATE;VALUE=DATE` takes away. */
  plain: CompiledRecurrence | null;
}

function compileOrNull(e: Parameters<typeof compileStored>[0]): CompiledRecurrence | null {
  try {
    return compileStored(e);
  } catch (err) {
    if (err instanceof RecurrenceError) return null;
    throw err;
  }
}

const isDateExdate = (line: string) => /^EXDATE(;[^:]*)?;VALUE=DATE[;:]/.test(normaliseLine(line));

function seriesOf(e: IcalSource): Series {
  const allDay = e.allDay;
  const form = allDay ? UTC_FORM : formOf(e.timeZone);
  if (!e.recurrence.length && !(e.recurrenceOverrides ?? []).length) {
    return { e, form, allDay, compiled: null, members: null, plain: null };
  }
  const compiled = compileOrNull(e);
  if (!compiled) return { e, form, allDay, compiled, members: null, plain: null };
  const members = compileOrNull({ ...e, recurrenceOverrides: [] });
  const dated = e.recurrence.filter((l) => !isDateExdate(l));
  const plain =
    allDay || dated.length === e.recurrence.length
      ? members
      : compileOrNull({ ...e, recurrence: dated, recurrenceOverrides: [] });
  return { e, form, allDay, compiled, members, plain };
}

/** The occurrences (original starts) of the series without overrides in [from, to). */
function occurrenceStarts(
  s: Series,
  which: 'members' | 'plain',
  from: number,
  to: number,
  limit = 1000,
): number[] {
  if (!s.members || !s.plain || !(from < to)) return [];
  const { occurrences } = expandRecurrence(which === 'members' ? s.members : s.plain, { from, to, limit });
  return occurrences.map((o) =>
    s.allDay ? Date.parse(`${o.recurrenceId}T00:00:00Z`) : Date.parse(o.recurrenceId),
  );
}

/** Is `ridKey` (an instant; a UTC midnight for all-day series) an occurrence of the series? */
function isOccurrence(s: Series, ridKey: number): boolean {
  const span = s.allDay ? DAY_MS : 1;
  return occurrenceStarts(s, 'members', ridKey, ridKey + span).includes(ridKey);
}

/** DTSTART's wall time of day (timed series), for an RDATE given as a bare date. */
function startTimeOfDay(s: Series): number {
  const start = s.e.startsAt?.getTime() ?? 0;
  const wall = start + s.form.zone.offsetAt(start);
  return wall - Math.floor(wall / DAY_MS) * DAY_MS;
}

/** One RDATE/EXDATE value as an instant (timed series) or a date (all-day), as the engine reads it. */
function entryValue(
  raw: string,
  type: string,
  entryZone: Zone | null,
  s: Series,
): { ms: number } | { date: string } | null {
  if (type === 'date') {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(raw)) return null;
    if (s.allDay) return { date: raw };
    return { ms: s.form.zone.toInstant(dayNumber(raw) * DAY_MS + startTimeOfDay(s)) };
  }
  const dt = parseJcalDateTime(raw);
  if (!dt) return null;
  if (s.allDay) return { date: formatWall(dt.wallMs).slice(0, 10) };
  if (dt.utc) return { ms: dt.wallMs };
  return { ms: (entryZone ?? s.form.zone).toInstant(dt.wallMs) };
}

function writeEntry(v: { ms: number } | { date: string }, s: Series): string {
  return 'date' in v ? v.date : wallText(v.ms, s.form);
}

/** A date-list property (RDATE/EXDATE) in the series' form; null when nothing is left of it. */
function dateListProperty(
  name: string,
  values: (string | string[])[],
  s: Series,
  period: boolean,
): ICAL.Property | null {
  if (!values.length) return null;
  const p = new ICAL.Property(name);
  if (period) p.resetType('period');
  else if (s.allDay) p.resetType('date');
  if (!s.allDay && s.form.tzid) p.setParameter('tzid', s.form.tzid);
  p.setValues(values as never[]);
  return p;
}

/** `EXDATE;VALUE=DATE` on a timed series: every occurrence starting on that wall day (engine's rule). */
function dayExclusions(days: string[], s: Series): number[] {
  const out: number[] = [];
  for (const d of days) {
    const day = dayNumber(d);
    const from = s.form.zone.toInstant(day * DAY_MS);
    const to = s.form.zone.toInstant((day + 1) * DAY_MS);
    for (const ms of occurrenceStarts(s, 'plain', from - DAY_MS, to)) {
      if (ms >= from && ms < to) out.push(ms);
    }
  }
  return out;
}

/** An RRULE/EXRULE's UNTIL in DTSTART's form: UTC for timed series, a DATE for all-day ones. */
function untilFor(until: string, s: Series): string {
  if (s.allDay) return until.slice(0, 10);
  if (/^\d{4}-\d{2}-\d{2}$/.test(until)) {
    // A DATE bound includes its whole day in the series zone.
    return wallText(s.form.zone.toInstant((dayNumber(until) + 1) * DAY_MS - 1000), UTC_FORM);
  }
  const dt = parseJcalDateTime(until);
  if (!dt || dt.utc) return until;
  return wallText(s.form.zone.toInstant(dt.wallMs), UTC_FORM);
}

/** The recurrence properties of the master: RRULE/EXRULE, RDATE, EXDATE (with cancelled overrides). */
function recurrenceProperties(s: Series): ICAL.Property[] {
  if (!s.compiled) return [];
  const out: ICAL.Property[] = [];
  const exdates: string[] = [];
  const exMs: number[] = [];
  const exDays: string[] = [];
  for (const line of s.e.recurrence) {
    let jcal: [string, Record<string, string>, string, ...unknown[]];
    try {
      jcal = ICAL.parse.property(normaliseLine(line)) as typeof jcal;
    } catch {
      continue;
    }
    const [name, params, type, ...values] = jcal;
    if (name === 'rrule' || name === 'exrule') {
      const rule = { ...(values[0] as Record<string, unknown>) };
      if (typeof rule.until === 'string') rule.until = untilFor(rule.until, s);
      out.push(new ICAL.Property([name, {}, 'recur', rule]));
      continue;
    }
    if (name !== 'rdate' && name !== 'exdate') continue;
    const tzid = typeof params.tzid === 'string' ? zoneOfTzid(params.tzid) : null;
    if (name === 'exdate' && type === 'date' && !s.allDay) {
      exDays.push(...(values as string[]));
      continue;
    }
    if (type === 'period') {
      const periods: string[][] = [];
      for (const v of values as string[][]) {
        const start = entryValue(v[0], 'date-time', tzid, s);
        if (!start) continue;
        if (s.allDay || !('ms' in start)) {
          // An all-day series keeps whole days: a PERIOD counts by its date.
          out.push(dateListProperty('rdate', [writeEntry(start, s)], s, false) as ICAL.Property);
          continue;
        }
        const endDt = parseJcalDateTime(v[1]);
        const end = endDt ? entryValue(v[1], 'date-time', tzid, s) : null;
        periods.push([writeEntry(start, s), end ? writeEntry(end, s) : v[1]]);
      }
      const p = dateListProperty('rdate', periods, s, true);
      if (p) out.push(p);
      continue;
    }
    const written = (values as string[])
      .map((v) => entryValue(v, type, tzid, s))
      .filter((v): v is NonNullable<typeof v> => v !== null);
    if (name === 'rdate') {
      const p = dateListProperty(
        'rdate',
        written.map((v) => writeEntry(v, s)),
        s,
        false,
      );
      if (p) out.push(p);
    } else {
      for (const v of written) {
        if ('ms' in v) exMs.push(v.ms);
        else exdates.push(v.date);
      }
    }
  }
  exMs.push(...dayExclusions(exDays, s));
  for (const o of s.e.recurrenceOverrides ?? []) {
    if (!o.cancelled) continue;
    const key = overrideKey(o, s);
    if (key === null) continue;
    if (s.allDay) exdates.push(formatWall(key).slice(0, 10));
    else exMs.push(key);
  }
  const ex = [
    ...new Set([...exMs.sort((a, b) => a - b).map((ms) => wallText(ms, s.form)), ...exdates.sort()]),
  ];
  const p = dateListProperty('exdate', ex, s, false);
  if (p) out.push(p);
  return out;
}

/** An override's RECURRENCE-ID as the engine keys it: an instant, or a UTC midnight (all-day). */
function overrideKey(o: StoredOverride, s: Series): number | null {
  if (s.allDay) {
    return /^\d{4}-\d{2}-\d{2}$/.test(o.recurrence_id) ? dayNumber(o.recurrence_id) * DAY_MS : null;
  }
  return ridInstant(o.recurrence_id, s.form);
}

// ---------------------------------------------------------------------------------------------------
// Components

/** Parameter values may not hold a DQUOTE or control characters (RFC 5545 3.1). */
const paramText = (v: string) => v.replace(/["\p{Cc}]/gu, "'");

function addText(c: ICAL.Component, name: string, value: string | null | undefined): void {
  if (value !== null && value !== undefined && value !== '') c.addPropertyWithValue(name, value);
}

const STATUS = { confirmed: 'CONFIRMED', tentative: 'TENTATIVE', cancelled: 'CANCELLED' } as const;
const CLASS = { default: null, public: 'PUBLIC', private: 'PRIVATE', confidential: 'CONFIDENTIAL' } as const;

/** What the master and its moved occurrences share: everything but times and recurrence. */
function describeEvent(c: ICAL.Component, e: IcalSource, o: RenderOptions): void {
  c.addPropertyWithValue('uid', eventUid(e));
  c.addProperty(utcProperty('dtstamp', o.now ?? e.updatedAt));
  c.addProperty(utcProperty('created', e.createdAt));
  c.addProperty(utcProperty('last-modified', e.updatedAt));
  c.addPropertyWithValue('sequence', Math.max(0, e.version - 1));
  addText(c, 'summary', e.title);
  addText(c, 'description', e.description);
  addText(c, 'location', e.location);
  c.addPropertyWithValue('status', STATUS[e.status] ?? 'CONFIRMED');
  const cls = CLASS[e.visibility];
  if (cls) c.addPropertyWithValue('class', cls);
  c.addPropertyWithValue('transp', e.transparency === 'transparent' ? 'TRANSPARENT' : 'OPAQUE');
  if (e.ownerPersonId) {
    const p = new ICAL.Property('organizer');
    p.setParameter('cn', paramText(e.ownerPersonId));
    p.setValue(personUri(e.ownerPersonId));
    c.addProperty(p);
  }
  for (const a of e.attendees ?? []) {
    const address = a.kind === 'email' ? a.email : a.id;
    if (!address) continue;
    const p = new ICAL.Property('attendee');
    p.setParameter('cutype', 'INDIVIDUAL');
    p.setParameter('role', a.role);
    p.setParameter('partstat', a.partstat);
    p.setParameter('cn', paramText(address));
    p.setValue(a.kind === 'email' ? `mailto:${address}` : personUri(address));
    c.addProperty(p);
  }
  if (e.conference?.url) {
    const p = new ICAL.Property('conference');
    p.resetType('uri');
    p.setParameter('feature', 'VIDEO');
    p.setParameter('label', paramText(e.conference.provider || 'Video call'));
    p.setValue(e.conference.url);
    c.addProperty(p);
  }
  addText(c, 'x-calendar-product', e.productId);
  addText(c, 'x-calendar-entity-type', e.entityType);
  addText(c, 'x-calendar-entity-id', e.entityId);
  for (const id of e.assigneeIds ?? []) addText(c, 'x-calendar-assignee', id);
  for (const r of e.resources ?? []) addText(c, 'x-calendar-resource', `${r.type}:${r.id}`);
  if (e.metadata && Object.keys(e.metadata).length) {
    addText(c, 'x-calendar-metadata', JSON.stringify(e.metadata));
  }
}

/** DTSTART and DTEND of the event's first occurrence; false when it has no start (nothing to write). */
function addMasterTimes(c: ICAL.Component, s: Series): boolean {
  const e = s.e;
  if (e.allDay) {
    if (!e.startDate) return false;
    c.addProperty(dateProperty('dtstart', e.startDate));
    c.addProperty(dateProperty('dtend', e.endDate ?? addDays(e.startDate, 1)));
    return true;
  }
  if (!e.startsAt) return false;
  c.addProperty(timeProperty('dtstart', e.startsAt.getTime(), s.form));
  c.addProperty(timeProperty('dtend', (e.endsAt ?? e.startsAt).getTime(), s.form));
  return true;
}

/** A moved occurrence's own VEVENT (null when its RECURRENCE-ID is no occurrence of the series). */
function overrideVevent(s: Series, o: StoredOverride, opts: RenderOptions): ICAL.Component | null {
  if (o.cancelled || !o.start) return null;
  const key = overrideKey(o, s);
  if (key === null || !isOccurrence(s, key)) return null;
  const c = new ICAL.Component('vevent');
  describeEvent(c, s.e, opts);
  c.addProperty(
    s.allDay
      ? dateProperty('recurrence-id', formatWall(key).slice(0, 10))
      : timeProperty('recurrence-id', key, s.form),
  );
  const start = o.start;
  if (start.date) {
    const days = s.e.startDate && s.e.endDate ? dayNumber(s.e.endDate) - dayNumber(s.e.startDate) : 1;
    c.addProperty(dateProperty('dtstart', start.date));
    c.addProperty(dateProperty('dtend', o.end?.date ?? addDays(start.date, days)));
    return c;
  }
  const startMs = instantOf(start);
  if (startMs === null) return null;
  const form = start.time_zone ? formOf(start.time_zone) : UTC_FORM;
  const endMs = o.end ? instantOf(o.end) : null;
  const duration = (s.e.endsAt?.getTime() ?? 0) - (s.e.startsAt?.getTime() ?? 0);
  c.addProperty(timeProperty('dtstart', startMs, form));
  c.addProperty(
    timeProperty(
      'dtend',
      endMs ?? startMs + Math.max(0, duration),
      o.end?.time_zone ? formOf(o.end.time_zone) : form,
    ),
  );
  return c;
}

// ---------------------------------------------------------------------------------------------------
// Redaction and stored text

const BUSY_KEEPS = new Set([
  'uid',
  'dtstart',
  'dtend',
  'duration',
  'rrule',
  'exrule',
  'rdate',
  'exdate',
  'recurrence-id',
  'transp',
]);

/**
 * A private event of someone else: its times and nothing else (the JSON views' busy block). Nothing
 * left may follow a hidden field: DTSTAMP is `stamp` (the caller's clock, or the event's start), not
 * when it was last changed, and STATUS says only what the JSON busy block's `free_busy` says
 * (TENTATIVE, else CONFIRMED), so a feed's bytes and ETag stay the same when only hidden fields change.
 */
export function redactToBusy(v: ICAL.Component, stamp: Date): ICAL.Component {
  const out = new ICAL.Component('vevent');
  for (const p of v.getAllProperties()) {
    if (BUSY_KEEPS.has(p.name)) out.addProperty(new ICAL.Property(structuredClone(p.toJSON())));
  }
  out.addProperty(utcProperty('dtstamp', stamp));
  const tentative = String(v.getFirstPropertyValue('status') ?? '').toUpperCase() === 'TENTATIVE';
  out.addPropertyWithValue('status', tentative ? 'TENTATIVE' : 'CONFIRMED');
  out.addPropertyWithValue('summary', 'Busy');
  out.addPropertyWithValue('class', 'PRIVATE');
  return out;
}

/** DTSTAMP of a busy block: the caller's clock, else what the busy block shows anyway (its start). */
const busyStamp = (e: IcalSource, o: RenderOptions) => o.now ?? e.startsAt ?? new Date(0);

interface Rendered {
  vevents: ICAL.Component[];
  /** VTIMEZONEs of stored text, by TZID. */
  zones: Map<string, ICAL.Component>;
}

/** The VEVENTs and VTIMEZONEs of stored iCalendar text; null when it does not parse. */
function storedText(text: string): Rendered | null {
  let root: ICAL.Component;
  try {
    root = ICAL.Component.fromString(text);
    // ical.js decodes values and writes text lazily: both once here, so text it cannot handle falls
    // back to the columns instead of failing the whole calendar later.
    for (const v of root.getAllSubcomponents()) for (const p of v.getAllProperties()) p.getValues();
    root.toString();
  } catch {
    return null;
  }
  if (root.name !== 'vcalendar') return null;
  const zones = new Map<string, ICAL.Component>();
  for (const z of root.getAllSubcomponents('vtimezone')) {
    const id = z.getFirstPropertyValue('tzid');
    if (typeof id === 'string') zones.set(id, z);
  }
  return { vevents: root.getAllSubcomponents('vevent'), zones };
}

function render(e: IcalSource, o: RenderOptions): Rendered {
  const stored = e.ical ? storedText(e.ical) : null;
  if (stored) {
    const vevents = o.busyOnly ? stored.vevents.map((v) => redactToBusy(v, busyStamp(e, o))) : stored.vevents;
    return { vevents, zones: stored.zones };
  }
  const s = seriesOf(e);
  const master = new ICAL.Component('vevent');
  describeEvent(master, e, o);
  if (!addMasterTimes(master, s)) return { vevents: [], zones: new Map() };
  for (const p of recurrenceProperties(s)) master.addProperty(p);
  const vevents = [master];
  if (s.compiled) {
    for (const ov of e.recurrenceOverrides ?? []) {
      const v = overrideVevent(s, ov, o);
      if (v) vevents.push(v);
    }
  }
  return {
    vevents: o.busyOnly ? vevents.map((v) => redactToBusy(v, busyStamp(e, o))) : vevents,
    zones: new Map(),
  };
}

/**
 * The master VEVENT of the event (its series) and one VEVENT per moved occurrence. Empty for an event
 * without a start: iCalendar has no event without DTSTART outside a METHOD.
 */
export function eventVevents(e: IcalSource, o: RenderOptions = {}): ICAL.Component[] {
  return render(e, o).vevents;
}

/** Every TZID the components' properties name, sorted. */
export function zonesOf(vevents: ICAL.Component[]): string[] {
  const found = new Set<string>();
  for (const v of vevents) {
    for (const p of v.getAllProperties()) {
      const tzid = p.getParameter('tzid');
      if (typeof tzid === 'string' && tzid) found.add(tzid);
    }
  }
  return [...found].sort();
}

// ---------------------------------------------------------------------------------------------------
// Calendars

/** How far ahead a VTIMEZONE reaches for a series without an end (its yearly rule goes on after). */
const OPEN_SERIES_HORIZON_MS = 400 * DAY_MS;

/** The instants the components write in zone `tzid`, to cover with its VTIMEZONE. */
function spanOf(tzid: string, zone: Zone, vevents: ICAL.Component[], now: number): { from: Date; to: Date } {
  let lo = Infinity;
  let hi = -Infinity;
  const see = (ms: number) => {
    if (ms < lo) lo = ms;
    if (ms > hi) hi = ms;
  };
  const seeText = (text: unknown) => {
    if (typeof text !== 'string') return;
    const dt = parseJcalDateTime(text);
    if (dt) see(dt.utc ? dt.wallMs : zone.toInstant(dt.wallMs));
  };
  for (const v of vevents) {
    let zoned = false;
    for (const p of v.getAllProperties()) {
      if (p.getParameter('tzid') !== tzid) continue;
      zoned = true;
      for (const value of p.toJSON().slice(3)) {
        if (Array.isArray(value)) value.forEach(seeText);
        else seeText(value);
      }
    }
    if (!zoned) continue;
    for (const r of v.getAllProperties('rrule')) {
      const rule = r.toJSON()[3] as { until?: string; count?: number };
      if (rule.until) seeText(rule.until);
      else see(now + OPEN_SERIES_HORIZON_MS);
    }
  }
  if (lo === Infinity) return { from: new Date(now), to: new Date(now) };
  return { from: new Date(lo - DAY_MS), to: new Date(hi + DAY_MS) };
}

/** Lines folded at 75 octets (continuations too: space + 74), never inside a character; CRLF ends. */
export function foldContentLines(text: string): string {
  const out: string[] = [];
  for (const line of text.replace(/\r\n[ \t]/g, '').split('\r\n')) {
    if (line === '') continue;
    if (Buffer.byteLength(line, 'utf8') <= 75) {
      out.push(line);
      continue;
    }
    let chunk = '';
    let octets = 0;
    let limit = 75;
    for (const ch of line) {
      const n = Buffer.byteLength(ch, 'utf8');
      if (octets + n > limit) {
        out.push(chunk);
        chunk = ' ';
        octets = 1;
        limit = 75;
      }
      chunk += ch;
      octets += n;
    }
    out.push(chunk);
  }
  return `${out.join('\r\n')}\r\n`;
}

export interface CalendarTextOptions {
  busyOnly?: (e: IcalSource) => boolean;
  /** The feed's name: makes the calendar a published feed (METHOD:PUBLISH, X-WR-CALNAME, NAME). */
  name?: string;
  /** ISO 8601 duration ('PT1H'): REFRESH-INTERVAL (RFC 7986) and X-PUBLISHED-TTL. */
  refreshInterval?: string;
  now?: Date;
}

/** One VCALENDAR holding the events, with a VTIMEZONE for every TZID they use. */
export function calendarText(events: IcalSource[], o: CalendarTextOptions = {}): string {
  const cal = new ICAL.Component('vcalendar');
  cal.addPropertyWithValue('prodid', PRODID);
  cal.addPropertyWithValue('version', '2.0');
  cal.addPropertyWithValue('calscale', 'GREGORIAN');
  if (o.name !== undefined) {
    cal.addPropertyWithValue('method', 'PUBLISH');
    cal.addPropertyWithValue('x-wr-calname', o.name);
    cal.addPropertyWithValue('name', o.name);
  }
  if (o.refreshInterval) {
    const refresh = new ICAL.Property('refresh-interval');
    refresh.resetType('duration');
    refresh.setValue(ICAL.Duration.fromString(o.refreshInterval));
    cal.addProperty(refresh);
    cal.addPropertyWithValue('x-published-ttl', o.refreshInterval);
  }
  const vevents: ICAL.Component[] = [];
  const storedZones = new Map<string, ICAL.Component>();
  for (const e of events) {
    const r = render(e, { busyOnly: o.busyOnly?.(e) ?? false, now: o.now });
    vevents.push(...r.vevents);
    for (const [id, z] of r.zones) if (!storedZones.has(id)) storedZones.set(id, z);
  }
  const now = (o.now ?? new Date()).getTime();
  for (const tzid of zonesOf(vevents)) {
    const zone = zoneOfTzid(tzid);
    if (zone) {
      const { from, to } = spanOf(tzid, zone, vevents, now);
      cal.addSubcomponent(vtimezone(tzid, from, to));
    } else {
      const stored = storedZones.get(tzid);
      if (stored) cal.addSubcomponent(stored);
    }
  }
  for (const v of vevents) cal.addSubcomponent(v);
  return foldContentLines(cal.toString());
}

/**
 * One CalDAV resource: the event's series, its moved occurrences and their VTIMEZONEs, no METHOD. An
 * event stored as iCalendar text is answered as stored (unless it is to be shown as busy).
 */
export function eventResourceText(e: IcalSource, o: RenderOptions = {}): string {
  if (e.ical && !o.busyOnly) return e.ical;
  return calendarText([e], { busyOnly: () => o.busyOnly ?? false, now: o.now });
}
