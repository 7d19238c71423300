import ICAL from 'ical.js';
import {
  RecurrenceError,
  expandRecurrence,
  occurrenceIntervals,
  type Occurrence,
} from '@platform/recurrence';
import { foldContentLines, PRODID } from '../ical/ical-writer';
import { compileStored, floatingZoneOf, isRecurring } from '../recurrence/event-series';
import type { DavMember, DavSpan } from './dav.repository';
import { recurrenceIdKeys } from './ical-reader';

/**
 * Time ranges over calendar object resources (RFC 4791 9.9), computed with the calendar's recurrence
 * engine from the stored columns, so CalDAV, the JSON views and free/busy agree on every occurrence.
 */

export interface Range {
  from: number;
  to: number;
}

/** At most this many instances per resource in `<C:expand>` and free-busy answers. */
export const MAX_EXPANDED = 1000;

const overlaps = (start: number, end: number, r: Range) =>
  start < r.to && (end > r.from || (start === end && start >= r.from));

const plainInterval = (m: DavSpan) =>
  m.startsAt && m.endsAt
    ? { start: new Date(m.startsAt).getTime(), end: new Date(m.endsAt).getTime() }
    : null;

function compiled(m: DavSpan) {
  try {
    return compileStored(m);
  } catch (e) {
    if (e instanceof RecurrenceError) return null;
    throw e;
  }
}

/** The busy intervals of a member within the range (its first occurrence alone when not recurring). */
export function intervalsIn(m: DavSpan, r: Range, max = MAX_EXPANDED): { start: number; end: number }[] {
  const single = plainInterval(m);
  if (!isRecurring(m) && !(m.recurrenceOverrides ?? []).length)
    return single && overlaps(single.start, single.end, r) ? [single] : [];
  const c = compiled(m);
  if (!c) return single && overlaps(single.start, single.end, r) ? [single] : [];
  const out: { start: number; end: number }[] = [];
  for (const iv of occurrenceIntervals(c, { from: r.from, to: r.to, floatingTimeZone: floatingZoneOf(m) })) {
    out.push({ start: iv.start, end: iv.end });
    if (out.length >= max) break;
  }
  return out;
}

/** Whether any occurrence of the member overlaps the range. */
export const overlapsRange = (m: DavSpan, r: Range) => intervalsIn(m, r, 1).length > 0;

function occurrences(m: DavMember, r: Range): Occurrence[] | null {
  if (!isRecurring(m) && !(m.recurrenceOverrides ?? []).length) return null;
  const c = compiled(m);
  if (!c) return null;
  return expandRecurrence(c, {
    from: r.from,
    to: r.to,
    limit: MAX_EXPANDED,
    floatingTimeZone: floatingZoneOf(m),
  }).occurrences;
}

const SERIES_PROPS = ['rrule', 'rdate', 'exdate', 'exrule'];

const copyOf = (c: ICAL.Component) => new ICAL.Component(JSON.parse(JSON.stringify(c.toJSON())) as unknown[]);

function setTime(v: ICAL.Component, prop: string, t: { date: string } | { instant: number | string }): void {
  v.removeAllProperties(prop);
  const p = new ICAL.Property(prop);
  if ('date' in t) p.setValue(ICAL.Time.fromDateString(t.date));
  else p.setValue(ICAL.Time.fromJSDate(new Date(t.instant), true));
  v.addProperty(p);
}

/**
 * `<C:expand>` (RFC 4791 9.6.5): the resource's instances in the range as VEVENTs in UTC, each with its
 * RECURRENCE-ID, no RRULE/RDATE/EXDATE and no VTIMEZONE. A non-recurring resource is its one VEVENT.
 */
export function expandedText(m: DavMember, text: string, r: Range): string {
  const root = new ICAL.Component(ICAL.parse(text) as unknown[]);
  const vevents = root.getAllSubcomponents('vevent');
  const master = vevents.find((v) => !v.hasProperty('recurrence-id')) ?? vevents[0];
  const out = new ICAL.Component('vcalendar');
  out.addPropertyWithValue('prodid', PRODID);
  out.addPropertyWithValue('version', '2.0');
  const list = occurrences(m, r);
  if (!list) {
    const v = copyOf(master);
    const single = plainInterval(m);
    if (single && !m.allDay) {
      setTime(v, 'dtstart', { instant: single.start });
      if (v.hasProperty('dtend') || single.end !== single.start) {
        v.removeAllProperties('duration');
        setTime(v, 'dtend', { instant: single.end });
      }
    }
    out.addSubcomponent(v);
    return foldContentLines(out.toString());
  }
  const byId = recurrenceIdKeys(root);
  for (const o of list) {
    const source = byId.get(o.recurrenceId) ?? master;
    const v = copyOf(source);
    for (const p of SERIES_PROPS) v.removeAllProperties(p);
    v.removeAllProperties('duration');
    setTime(v, 'dtstart', o.start);
    setTime(v, 'dtend', o.end);
    const rid = new ICAL.Property('recurrence-id');
    rid.setValue(
      'date' in o.start
        ? ICAL.Time.fromDateString(o.recurrenceId)
        : ICAL.Time.fromJSDate(new Date(Date.parse(o.recurrenceId)), true),
    );
    v.removeAllProperties('recurrence-id');
    v.addProperty(rid);
    out.addSubcomponent(v);
  }
  return foldContentLines(out.toString());
}

const stamp = (ms: number) => ICAL.Time.fromJSDate(new Date(ms), true);

/** free-busy-query (RFC 4791 7.10): one VFREEBUSY of the opaque, not cancelled members in the range. */
export function freeBusyText(members: DavSpan[], r: Range, now = Date.now()): string {
  const busy: { start: number; end: number; tentative: boolean }[] = [];
  for (const m of members) {
    if (m.status === 'cancelled' || m.transparency === 'transparent') continue;
    for (const iv of intervalsIn(m, r)) {
      const start = Math.max(iv.start, r.from);
      const end = Math.min(iv.end, r.to);
      if (end > start) busy.push({ start, end, tentative: m.status === 'tentative' });
    }
  }
  busy.sort((a, b) => a.start - b.start || a.end - b.end);
  const cal = new ICAL.Component('vcalendar');
  cal.addPropertyWithValue('prodid', PRODID);
  cal.addPropertyWithValue('version', '2.0');
  const fb = new ICAL.Component('vfreebusy');
  fb.addPropertyWithValue('dtstamp', stamp(now));
  fb.addPropertyWithValue('dtstart', stamp(r.from));
  fb.addPropertyWithValue('dtend', stamp(r.to));
  for (const b of busy) {
    const p = new ICAL.Property('freebusy');
    p.setParameter('fbtype', b.tentative ? 'BUSY-TENTATIVE' : 'BUSY');
    p.setValue(ICAL.Period.fromData({ start: stamp(b.start), end: stamp(b.end), duration: null as never }));
    fb.addProperty(p);
  }
  cal.addSubcomponent(fb);
  return foldContentLines(cal.toString());
}
