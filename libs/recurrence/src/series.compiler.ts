import { DAY_MS, formatDay, formatInstant, formatOffset } from '@platform/time';
import { parseDuration, parseIsoDate, parseIsoDateTime } from './ical-values';
import { parseRecurrenceLines, type DateEntry } from './recurrence-lines.parser';
import {
  RecurrenceError,
  RecurrenceErrorCode as C,
  RecurrenceReason as R,
  invalid,
} from './recurrence.errors';
import type { EventTime, RecurrenceOverride, RecurrenceSeries } from './recurrence.types';
import { expandRule, type ExpandedRule } from './rule-expander';
import type { UntilBound } from './rule-stream';
import { Freq, type RecurrenceRule } from './rrule.parser';
import { FLOATING, UTC, fixedOffsetZone, resolveZone, type Zone } from '@platform/time';

export type CompiledTime =
  { kind: 'date'; days: number } | { kind: 'timed'; instantMs: number; wallMs: number; zone: Zone };

/**
 * How long each occurrence lasts. DTEND gives the same exact duration to every timed occurrence;
 * DURATION's days are nominal (same wall time n days later) and its hours exact (RFC 5545 3.8.5.3,
 * 3.3.6); all-day occurrences last whole days.
 */
export type DurationSpec =
  | { kind: 'exact'; ms: number }
  | { kind: 'nominal'; days: number; ms: number }
  | { kind: 'days'; days: number };

/** An override: the occurrence at `ridKey` (its original start's key) is cancelled or moved. */
export type CompiledOverride = { ridKey: number; cancelled: true } | MovedOverride;

export interface MovedOverride {
  /** Instant (timed series) or the day's wall midnight (all-day series) of the original start. */
  ridKey: number;
  cancelled: false;
  start: CompiledTime;
  end: CompiledTime | null;
}

export interface CompiledRule {
  rule: ExpandedRule;
  until: UntilBound | null;
}

export interface CompiledRdate {
  key: number;
  wallMs: number;
  /** RDATE;VALUE=PERIOD: this instance's own end instant. */
  endKey: number | null;
}

/** A series parsed and checked once, reusable across calls (free/busy over many series). */
export interface CompiledRecurrence {
  readonly kind: 'compiled-recurrence';
  readonly dateSeries: boolean;
  /** The series zone (FLOATING for all-day series, whose keys are wall midnights). */
  readonly zone: Zone;
  readonly endZone: Zone;
  readonly startWallMs: number;
  readonly startKey: number;
  readonly duration: DurationSpec;
  readonly rules: CompiledRule[];
  readonly exrules: CompiledRule[];
  readonly rdates: CompiledRdate[];
  readonly exKeys: ReadonlySet<number>;
  /** EXDATE;VALUE=DATE on a timed series: every occurrence starting on that local day. */
  readonly exDays: ReadonlySet<number>;
  readonly overrides: ReadonlyMap<number, CompiledOverride>;
  readonly moved: readonly MovedOverride[];
}

export const MAX_OVERRIDES = 10_000;

const startError = (reason: R, part?: string) => new RecurrenceError(C.INVALID_START, reason, { part });
const overrideError = (reason: R, part?: string) => new RecurrenceError(C.INVALID_OVERRIDE, reason, { part });

function describe(t: unknown): string {
  try {
    return JSON.stringify(t) ?? String(t);
  } catch {
    return String(t);
  }
}

/** Reads an EventTime; `fail` builds the error for its context (start, end, override). */
export function parseEventTime(
  t: EventTime,
  fail: (reason: R, part?: string) => RecurrenceError,
): CompiledTime {
  if (typeof t !== 'object' || t === null) throw fail(R.BAD_VALUE, describe(t));
  const rec = t as Record<string, unknown>;
  const hasDate = rec.date !== undefined;
  const hasDateTime = rec.dateTime !== undefined;
  if (hasDate === hasDateTime) throw fail(R.BAD_VALUE, describe(t));
  if (hasDate) {
    if (typeof rec.date !== 'string' || rec.timeZone !== undefined) throw fail(R.BAD_VALUE, describe(t));
    const days = parseIsoDate(rec.date);
    if (days === null) throw fail(R.BAD_VALUE, rec.date);
    return { kind: 'date', days };
  }
  if (typeof rec.dateTime !== 'string') throw fail(R.BAD_VALUE, describe(t));
  const parsed = parseIsoDateTime(rec.dateTime);
  if (!parsed) throw fail(R.BAD_VALUE, rec.dateTime);
  let zone: Zone | null = null;
  if (rec.timeZone !== undefined) {
    zone = typeof rec.timeZone === 'string' ? resolveZone(rec.timeZone) : null;
    if (!zone) throw fail(R.UNKNOWN_TIME_ZONE, String(rec.timeZone));
  }
  if (parsed.offsetMs === null) {
    // A floating time (no zone, no offset) has no instant; the calendar always stores a zone.
    if (!zone) throw fail(R.UNKNOWN_TIME_ZONE, rec.dateTime);
    return { kind: 'timed', instantMs: zone.toInstant(parsed.wallMs), wallMs: parsed.wallMs, zone };
  }
  const instantMs = parsed.wallMs - parsed.offsetMs;
  zone ??= parsed.offsetMs === 0 ? UTC : fixedOffsetZone(formatOffset(parsed.offsetMs), parsed.offsetMs);
  return { kind: 'timed', instantMs, wallMs: instantMs + zone.offsetAt(instantMs), zone };
}

function compileUntil(rule: RecurrenceRule, dateSeries: boolean): UntilBound | null {
  const u = rule.until;
  if (!u) return null;
  // A DATE bound includes its whole day. A UTC bound on a timed series is an instant; anything else
  // (RFC 5545 wants UTC there, but stored data has floating ones) is read as the series' wall time.
  if (u.kind === 'date') return { kind: 'wall', wallMs: (u.days + 1) * DAY_MS - 1 };
  if (u.utc && !dateSeries) return { kind: 'instant', ms: u.wallMs };
  return { kind: 'wall', wallMs: u.wallMs };
}

function compileRules(rules: RecurrenceRule[], startWallMs: number, dateSeries: boolean): CompiledRule[] {
  return rules.map((rule) => {
    if (dateSeries && (rule.freq > Freq.DAILY || rule.byHour || rule.byMinute || rule.bySecond)) {
      throw invalid(R.TIME_ON_DATE_SERIES, 'FREQ/BYHOUR/BYMINUTE/BYSECOND on an all-day series');
    }
    return { rule: expandRule(rule, startWallMs, dateSeries), until: compileUntil(rule, dateSeries) };
  });
}

/** Where a DATE-TIME entry lands: its own zone, else (floating) the series zone. */
function entryInstant(e: DateEntry & { kind: 'date-time' }, zone: Zone): number {
  return (e.zone ?? zone).toInstant(e.wallMs);
}

function compileRdates(
  entries: DateEntry[],
  s: { dateSeries: boolean; zone: Zone; startWallMs: number },
): CompiledRdate[] {
  const byKey = new Map<number, CompiledRdate>();
  const timeOfDay = s.startWallMs - Math.floor(s.startWallMs / DAY_MS) * DAY_MS;
  for (const e of entries) {
    let r: CompiledRdate;
    if (s.dateSeries) {
      // An all-day series keeps whole days: a DATE-TIME (or PERIOD) counts by its written date.
      const days = e.kind === 'date' ? e.days : Math.floor(e.wallMs / DAY_MS);
      r = { key: days * DAY_MS, wallMs: days * DAY_MS, endKey: null };
    } else if (e.kind === 'date') {
      // A DATE on a timed series: that day at DTSTART's time of day, in the series zone.
      const wallMs = e.days * DAY_MS + timeOfDay;
      r = { key: s.zone.toInstant(wallMs), wallMs, endKey: null };
    } else {
      const key = entryInstant(e, s.zone);
      let endKey: number | null = null;
      const pe = e.periodEnd;
      if (pe && 'wallMs' in pe) endKey = (e.zone ?? s.zone).toInstant(pe.wallMs);
      else if (pe)
        endKey = (e.zone ?? s.zone).toInstant(e.wallMs + pe.duration.days * DAY_MS) + pe.duration.ms;
      r = { key, wallMs: key + s.zone.offsetAt(key), endKey };
    }
    const prev = byKey.get(r.key);
    // RFC 5545 3.8.5.2: a PERIOD's duration wins over the series' for that instance.
    if (!prev || (prev.endKey === null && r.endKey !== null)) byKey.set(r.key, r);
  }
  return [...byKey.values()].sort((a, b) => a.key - b.key);
}

function compileDuration(
  series: RecurrenceSeries,
  start: CompiledTime,
): { duration: DurationSpec; endZone: Zone } {
  const end = series.end === undefined || series.end === null ? null : parseEventTime(series.end, startError);
  const hasDuration = series.duration !== undefined && series.duration !== null;
  if (end && hasDuration) throw startError(R.BAD_VALUE, 'end and duration are exclusive');
  if (start.kind === 'date') {
    if (end) {
      if (end.kind !== 'date') throw startError(R.MIXED_VALUE_TYPES, describe(series.end));
      if (end.days < start.days) throw startError(R.END_BEFORE_START, describe(series.end));
      return { duration: { kind: 'days', days: end.days - start.days }, endZone: FLOATING };
    }
    if (hasDuration) {
      const d = typeof series.duration === 'string' ? parseDuration(series.duration.toUpperCase()) : null;
      if (!d || d.ms !== 0) throw startError(R.BAD_VALUE, String(series.duration));
      return { duration: { kind: 'days', days: d.days }, endZone: FLOATING };
    }
    // RFC 5545 3.6.1: an all-day event without DTEND or DURATION lasts one day.
    return { duration: { kind: 'days', days: 1 }, endZone: FLOATING };
  }
  if (end) {
    if (end.kind !== 'timed') throw startError(R.MIXED_VALUE_TYPES, describe(series.end));
    if (end.instantMs < start.instantMs) throw startError(R.END_BEFORE_START, describe(series.end));
    return { duration: { kind: 'exact', ms: end.instantMs - start.instantMs }, endZone: end.zone };
  }
  if (hasDuration) {
    const d = typeof series.duration === 'string' ? parseDuration(series.duration.toUpperCase()) : null;
    if (!d) throw startError(R.BAD_VALUE, String(series.duration));
    return {
      duration: d.days ? { kind: 'nominal', days: d.days, ms: d.ms } : { kind: 'exact', ms: d.ms },
      endZone: start.zone,
    };
  }
  return { duration: { kind: 'exact', ms: 0 }, endZone: start.zone };
}

/** Reads a RECURRENCE-ID: an instant (or a wall time in the series zone), or a day for all-day series. */
export function parseRecurrenceId(rid: unknown, dateSeries: boolean, zone: Zone): number | null {
  if (typeof rid !== 'string' || rid.length > 64) return null;
  if (dateSeries) {
    const days = parseIsoDate(rid);
    return days === null ? null : days * DAY_MS;
  }
  const dt = parseIsoDateTime(rid);
  if (!dt) return null;
  return dt.offsetMs === null ? zone.toInstant(dt.wallMs) : dt.wallMs - dt.offsetMs;
}

export function formatRecurrenceId(key: number, dateSeries: boolean): string {
  return dateSeries ? formatDay(Math.floor(key / DAY_MS)) : formatInstant(key);
}

function compileOverrides(
  list: readonly RecurrenceOverride[] | undefined,
  dateSeries: boolean,
  zone: Zone,
): { overrides: Map<number, CompiledOverride>; moved: MovedOverride[] } {
  const overrides = new Map<number, CompiledOverride>();
  const moved: MovedOverride[] = [];
  if (list === undefined || list === null) return { overrides, moved };
  if (!Array.isArray(list)) throw overrideError(R.BAD_VALUE, 'overrides must be an array');
  if (list.length > MAX_OVERRIDES) throw overrideError(R.TOO_LARGE, `${list.length} overrides`);
  for (const o of list as unknown[]) {
    if (typeof o !== 'object' || o === null) throw overrideError(R.BAD_VALUE, describe(o));
    const rec = o as Record<string, unknown>;
    const ridKey = parseRecurrenceId(rec.recurrenceId, dateSeries, zone);
    if (ridKey === null) throw overrideError(R.BAD_VALUE, describe(rec.recurrenceId));
    if (overrides.has(ridKey)) throw overrideError(R.DUPLICATE_RECURRENCE_ID, String(rec.recurrenceId));
    let c: CompiledOverride;
    if (rec.cancelled === true) {
      c = { ridKey, cancelled: true };
    } else {
      if (rec.cancelled !== undefined && rec.cancelled !== false)
        throw overrideError(R.BAD_VALUE, describe(rec.cancelled));
      const start = parseEventTime(rec.start as EventTime, overrideError);
      const end =
        rec.end === undefined || rec.end === null
          ? null
          : parseEventTime(rec.end as EventTime, overrideError);
      if (end && end.kind !== start.kind) throw overrideError(R.MIXED_VALUE_TYPES, describe(rec.end));
      if (!end && (start.kind === 'date') !== dateSeries)
        throw overrideError(R.MIXED_VALUE_TYPES, describe(rec.start));
      if (
        end &&
        (end.kind === 'date'
          ? end.days < (start as { days: number }).days
          : end.instantMs < (start as { instantMs: number }).instantMs)
      ) {
        throw overrideError(R.END_BEFORE_START, describe(rec.end));
      }
      const m: MovedOverride = { ridKey, cancelled: false, start, end };
      moved.push(m);
      c = m;
    }
    overrides.set(ridKey, c);
  }
  return { overrides, moved };
}

/**
 * Parses and checks a series once. Throws RecurrenceError (and nothing else) on any bad input.
 */
export function compileRecurrence(series: RecurrenceSeries): CompiledRecurrence {
  if (typeof series !== 'object' || series === null) throw startError(R.BAD_VALUE, describe(series));
  const start = parseEventTime(series.start, startError);
  const dateSeries = start.kind === 'date';
  const zone = start.kind === 'date' ? FLOATING : start.zone;
  const startWallMs = start.kind === 'date' ? start.days * DAY_MS : start.wallMs;
  const startKey = start.kind === 'date' ? startWallMs : start.instantMs;
  const { duration, endZone } = compileDuration(series, start);
  const lines = parseRecurrenceLines(series.lines ?? []);
  const s = { dateSeries, zone, startWallMs };
  const exKeys = new Set<number>();
  const exDays = new Set<number>();
  for (const e of lines.exdates) {
    if (dateSeries) exKeys.add((e.kind === 'date' ? e.days : Math.floor(e.wallMs / DAY_MS)) * DAY_MS);
    else if (e.kind === 'date') exDays.add(e.days);
    else exKeys.add(entryInstant(e, zone));
  }
  const { overrides, moved } = compileOverrides(series.overrides, dateSeries, zone);
  return {
    kind: 'compiled-recurrence',
    dateSeries,
    zone,
    endZone,
    startWallMs,
    startKey,
    duration,
    rules: compileRules(lines.rrules, startWallMs, dateSeries),
    exrules: compileRules(lines.exrules, startWallMs, dateSeries),
    rdates: compileRdates(lines.rdates, s),
    exKeys,
    exDays,
    overrides,
    moved,
  };
}

export function isCompiled(x: RecurrenceSeries | CompiledRecurrence): x is CompiledRecurrence {
  return (x as CompiledRecurrence).kind === 'compiled-recurrence';
}
