import ICAL from 'ical.js';
import {
  DAY_MS,
  MAX_MS,
  MIN_MS,
  WEEKDAYS,
  civilFromDays,
  daysFromCivil,
  daysInMonth,
  formatOffset,
  formatWall,
  resolveZone,
  weekdayOf,
  type Zone,
} from '@platform/time';

/**
 * VTIMEZONE components (RFC 5545 3.6.5) from the zone data the rest of the calendar computes with
 * (libs/time, Intl's tzdb), so a client places every TZID'd time where our recurrence engine does.
 *
 * One observance per offset change found in [from, to]: DTSTART is the wall time just before the
 * change (in TZOFFSETFROM), as the RFC reads it. A change to a larger offset is a DAYLIGHT observance,
 * to a smaller one STANDARD (a permanent shift is labelled the same way; clients read the offsets, not
 * the label). The last change of each direction carries an RRULE (FREQ=YEARLY;BYMONTH;BYDAY) when the
 * zone's data keeps that rule for years after `to`, so a series that runs past the window is still
 * placed right; without such a rule the last offset simply holds on. A zone with no change in the span
 * (Asia/Almaty today, UTC) gets one STANDARD observance with equal offsets.
 */

/** Years after the last change in range for which the yearly rule must match the zone data. */
const RULE_CHECK_YEARS = 6;

interface Transition {
  at: number;
  from: number;
  to: number;
}

/** Offsets are shown as +HHMM; the odd second of a local-mean-time offset is rounded off. */
const offsetText = (ms: number) => formatOffset(Math.round(ms / 60_000) * 60_000);

/** The instant (to the second) in (lo, hi] where the offset stops being `before`. */
function transitionIn(zone: Zone, lo: number, hi: number, before: number): number {
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (zone.offsetAt(mid) === before) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** Offset changes of the zone in [from, to], walking whole UTC days (changes are days apart). */
export function zoneTransitions(zone: Zone, from: number, to: number): Transition[] {
  const out: Transition[] = [];
  if (zone.fixed) return out;
  const first = Math.floor(from / DAY_MS);
  const last = Math.ceil(to / DAY_MS);
  let before = zone.offsetAt(first * DAY_MS);
  for (let day = first; day < last; day++) {
    const after = zone.offsetAt((day + 1) * DAY_MS);
    if (after !== before) {
      const at = transitionIn(zone, day * DAY_MS, (day + 1) * DAY_MS, before);
      if (at >= from && at <= to) out.push({ at, from: before, to: after });
      before = after;
    }
  }
  return out;
}

interface YearlyRule {
  month: number;
  /** 1..4 or -1 (last). */
  nth: number;
  weekday: number;
  /** Wall time of day (ms since midnight, in the offset before the change). */
  timeOfDay: number;
}

/** The wall day in `year` the rule names, or null when it has no such day. */
function ruleDay(r: YearlyRule, year: number): number | null {
  const dim = daysInMonth(year, r.month);
  if (r.nth > 0) {
    const firstDay = daysFromCivil(year, r.month, 1);
    const day = firstDay + ((r.weekday - weekdayOf(firstDay) + 7) % 7) + (r.nth - 1) * 7;
    return day < firstDay + dim ? day : null;
  }
  const lastDay = daysFromCivil(year, r.month, dim);
  return lastDay - ((weekdayOf(lastDay) - r.weekday + 7) % 7);
}

/** Does the zone change from `t.from` to `t.to` exactly where the rule says, in that year? */
function ruleHolds(zone: Zone, r: YearlyRule, t: Transition, year: number): boolean {
  const day = ruleDay(r, year);
  if (day === null) return false;
  const at = day * DAY_MS + r.timeOfDay - t.from;
  return zone.offsetAt(at - 1000) === t.from && zone.offsetAt(at) === t.to;
}

/** The yearly weekday rule the change `t` follows for RULE_CHECK_YEARS years on, if any. */
function yearlyRule(zone: Zone, t: Transition): YearlyRule | null {
  const wall = t.at + t.from;
  const day = Math.floor(wall / DAY_MS);
  const { y, m, d } = civilFromDays(day);
  if (y + RULE_CHECK_YEARS > 9999) return null;
  const base = { month: m, weekday: weekdayOf(day), timeOfDay: wall - day * DAY_MS };
  const candidates: YearlyRule[] = [{ ...base, nth: Math.ceil(d / 7) }];
  if (d + 7 > daysInMonth(y, m)) candidates.unshift({ ...base, nth: -1 });
  return (
    candidates.find((r) => {
      if (r.nth > 4) return false;
      for (let year = y + 1; year <= y + RULE_CHECK_YEARS; year++) {
        if (!ruleHolds(zone, r, t, year)) return false;
      }
      return true;
    }) ?? null
  );
}

/**
 * Yearly rules for the last change of each direction, by index: both or none, so a zone that keeps
 * only one of its two changes (DST abolished after the span) is not extended by half a rule.
 */
function tailRules(zone: Zone, changes: Transition[]): Map<number, YearlyRule> {
  const rules = new Map<number, YearlyRule>();
  const lastUp = changes.findLastIndex((t) => t.to > t.from);
  const lastDown = changes.findLastIndex((t) => t.to < t.from);
  if (lastUp < 0 || lastDown < 0) return rules;
  const up = yearlyRule(zone, changes[lastUp]);
  const down = yearlyRule(zone, changes[lastDown]);
  if (!up || !down) return rules;
  rules.set(lastUp, up);
  rules.set(lastDown, down);
  return rules;
}

function observance(
  kind: 'standard' | 'daylight',
  startWall: number,
  from: number,
  to: number,
  rule?: YearlyRule,
): ICAL.Component {
  const c = new ICAL.Component(kind);
  c.addPropertyWithValue('dtstart', ICAL.Time.fromDateTimeString(formatWall(startWall)));
  c.addPropertyWithValue('tzoffsetfrom', ICAL.UtcOffset.fromString(offsetText(from)));
  c.addPropertyWithValue('tzoffsetto', ICAL.UtcOffset.fromString(offsetText(to)));
  if (rule) {
    const nth = rule.nth === -1 ? '-1' : String(rule.nth);
    c.addPropertyWithValue(
      'rrule',
      ICAL.Recur.fromString(`FREQ=YEARLY;BYMONTH=${rule.month};BYDAY=${nth}${WEEKDAYS[rule.weekday]}`),
    );
  }
  return c;
}

/** The zone for a TZID as written (any case, '/'-prefixed global ids too), or null. */
export function zoneOfTzid(tzid: string): Zone | null {
  return resolveZone(tzid.startsWith('/') ? tzid.slice(1) : tzid);
}

/**
 * The VTIMEZONE for `tzid` (the name as the VEVENTs reference it) covering [from, to]. Throws for a
 * name libs/time does not know: the caller only asks for zones it resolved.
 */
export function vtimezone(tzid: string, from: Date, to: Date): ICAL.Component {
  const zone = zoneOfTzid(tzid);
  if (!zone) throw new Error(`unknown time zone ${tzid}`);
  const lo = Math.max(MIN_MS + DAY_MS, Math.min(from.getTime(), to.getTime()));
  const hi = Math.min(MAX_MS - 2 * DAY_MS, Math.max(from.getTime(), to.getTime()));
  const vtz = new ICAL.Component('vtimezone');
  vtz.addPropertyWithValue('tzid', tzid);
  const changes = zoneTransitions(zone, lo, hi);
  // What holds at `from`: an observance starting there, so every time in the span is covered.
  const initial = zone.offsetAt(lo);
  const firstDown = changes.length > 0 && changes[0].to < changes[0].from;
  const startWall = Math.floor((lo + initial) / DAY_MS) * DAY_MS;
  vtz.addSubcomponent(observance(firstDown ? 'daylight' : 'standard', startWall, initial, initial));
  const rules = tailRules(zone, changes);
  changes.forEach((t, i) => {
    const kind = t.to > t.from ? 'daylight' : 'standard';
    vtz.addSubcomponent(observance(kind, t.at + t.from, t.from, t.to, rules.get(i)));
  });
  return vtz;
}
