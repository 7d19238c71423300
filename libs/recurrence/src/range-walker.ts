import { DAY_MS, MAX_MS, MIN_MS } from '@platform/time';
import { parseIsoDateTime } from './ical-values';
import { RecurrenceError, RecurrenceErrorCode as C, RecurrenceReason as R } from './recurrence.errors';
import type { InstantInput } from './recurrence.types';
import type { Budget } from './rule-expander';
import type { CompiledRecurrence, CompiledTime, MovedOverride } from './series.compiler';
import { SetIterator } from './set-iterator';
import { UTC, resolveZone, type Zone } from '@platform/time';

export const DEFAULT_MAX_ITERATIONS = 500_000;
export const MAX_EMPTY_PERIODS = 100_000;

const rangeError = (reason: R, part?: string) => new RecurrenceError(C.INVALID_RANGE, reason, { part });

export function newBudget(maxIterations: number | undefined): Budget {
  const max = maxIterations ?? DEFAULT_MAX_ITERATIONS;
  if (!Number.isSafeInteger(max) || max < 1) throw rangeError(R.OUT_OF_RANGE, `maxIterations=${String(max)}`);
  return { work: 0, maxWork: max, maxEmpty: MAX_EMPTY_PERIODS, stopped: null };
}

export function parseInstant(x: InstantInput, what: string): number {
  let ms: number;
  if (typeof x === 'number') ms = x;
  else if (x instanceof Date) ms = x.getTime();
  else if (typeof x === 'string') {
    const p = parseIsoDateTime(x);
    if (!p || p.offsetMs === null) throw rangeError(R.BAD_VALUE, `${what}=${x}`);
    ms = p.wallMs - p.offsetMs;
  } else throw rangeError(R.BAD_VALUE, what);
  if (!Number.isFinite(ms) || ms < MIN_MS || ms > MAX_MS)
    throw rangeError(R.OUT_OF_RANGE, `${what}=${String(x)}`);
  return ms;
}

export function floatingZone(name: string | undefined): Zone {
  if (name === undefined) return UTC;
  const zone = typeof name === 'string' ? resolveZone(name) : null;
  if (!zone) throw rangeError(R.UNKNOWN_TIME_ZONE, `floatingTimeZone=${String(name)}`);
  return zone;
}

/** Position in the output order: by start instant, then by recurrence id. */
export interface SortKey {
  start: number;
  rid: number;
}

export interface RangeItem {
  /** Start and end as instants (all-day dates read in the floating zone). */
  start: number;
  end: number;
  ridKey: number;
  /** The override that moved it, or null for an occurrence as the rule made it. */
  override: MovedOverride | null;
  /** Generated items: the start instant (timed) or wall midnight (all-day); RDATE PERIOD end. */
  key: number;
  periodEnd: number | null;
}

/**
 * Occurrences overlapping [from, to) in output order (start, then recurrence id), after `after`:
 * the recurrence set without cancelled or moved instances, merged with the moved ones that land in
 * range (and belong to the set).
 */
export class RangeWalker {
  readonly orphaned: number[] = [];
  private readonly it: SetIterator;
  private readonly movedItems: RangeItem[] = [];
  private movedAt = 0;
  private pending: RangeItem | null = null;
  private generatedDone = false;

  constructor(
    private readonly c: CompiledRecurrence,
    private readonly from: number,
    private readonly to: number,
    private readonly floating: Zone,
    private readonly after: SortKey | null,
    budget: Budget,
  ) {
    // Rule instances that start before `lower` cannot be in range (or after the cursor).
    const lower = Math.max(from - maxDurationMs(c), after ? after.start : -Infinity);
    const keyZone = c.dateSeries ? floating : c.zone;
    this.it = new SetIterator(c, wallBounds(keyZone, lower).min, wallBounds(keyZone, to).max, budget);
    for (const o of c.moved) {
      const start = this.timeInstant(o.start);
      const end = o.end ? this.timeInstant(o.end) : this.endOf(o.start, start);
      const item: RangeItem = { start, end, ridKey: o.ridKey, override: o, key: o.ridKey, periodEnd: null };
      if (!this.inRange(item)) continue;
      if (isMember(c, o.ridKey, budget)) this.movedItems.push(item);
      else this.orphaned.push(o.ridKey);
    }
    this.movedItems.sort((a, b) => a.start - b.start || a.ridKey - b.ridKey);
  }

  /** The next occurrence in output order, or null. */
  next(): RangeItem | null {
    if (!this.pending && !this.generatedDone) {
      this.pending = this.nextGenerated();
      if (!this.pending) this.generatedDone = true;
    }
    const m = this.movedItems[this.movedAt];
    const g = this.pending;
    if (m && (!g || m.start < g.start || (m.start === g.start && m.ridKey < g.ridKey))) {
      this.movedAt++;
      return m;
    }
    this.pending = null;
    return g;
  }

  private inRange(i: { start: number; end: number; ridKey: number }): boolean {
    if (!(i.start < this.to && (i.end > this.from || i.start >= this.from))) return false;
    const a = this.after;
    return !a || i.start > a.start || (i.start === a.start && i.ridKey > a.rid);
  }

  private nextGenerated(): RangeItem | null {
    const c = this.c;
    while (this.it.next()) {
      const key = this.it.key;
      const start = c.dateSeries ? this.floating.toInstant(key) : key;
      if (start >= this.to) return null;
      if (c.overrides.has(key)) continue;
      const end = this.it.endKey ?? this.generatedEnd(key, start);
      const item = { start, end, ridKey: key };
      if (!this.inRange(item)) continue;
      return { ...item, override: null, key, periodEnd: this.it.endKey };
    }
    return null;
  }

  /** End of a rule-made occurrence: exact, nominal days then exact time, or whole days. */
  private generatedEnd(key: number, start: number): number {
    const d = this.c.duration;
    if (d.kind === 'exact') return start + d.ms;
    if (d.kind === 'days') return this.floating.toInstant(key + d.days * DAY_MS);
    const local = key + this.c.zone.offsetAt(key);
    return this.c.endZone.toInstant(local + d.days * DAY_MS) + d.ms;
  }

  private timeInstant(t: CompiledTime): number {
    return t.kind === 'date' ? this.floating.toInstant(t.days * DAY_MS) : t.instantMs;
  }

  /** A moved occurrence without its own end keeps the series' duration from its new start. */
  private endOf(t: CompiledTime, start: number): number {
    return this.generatedEnd(t.kind === 'date' ? t.days * DAY_MS : t.instantMs, start);
  }
}

/**
 * The longest a rule-made occurrence lasts (RDATE periods need no bound: RDATEs are never skipped).
 * Nominal days can stretch by a DST change, all-day ones by a floating-zone change: a day at most.
 */
function maxDurationMs(c: CompiledRecurrence): number {
  const d = c.duration;
  if (d.kind === 'exact') return d.ms;
  return d.days * DAY_MS + (d.kind === 'nominal' ? d.ms : 0) + DAY_MS;
}

/**
 * The wall times that can read as `instant` in `zone`: between the smallest and the largest offset
 * near it (transitions are days apart, so the offsets two days either side cover any in between).
 */
function wallBounds(zone: Zone, instant: number): { min: number; max: number } {
  if (zone.fixed) {
    const off = zone.offsetAt(instant);
    return { min: instant + off, max: instant + off };
  }
  const offs = [
    zone.offsetAt(instant - 2 * DAY_MS),
    zone.offsetAt(instant),
    zone.offsetAt(instant + 2 * DAY_MS),
  ];
  return { min: instant + Math.min(...offs), max: instant + Math.max(...offs) };
}

/** Is `ridKey` an instance of the recurrence set (before overrides)? */
export function isMember(c: CompiledRecurrence, ridKey: number, budget: Budget): boolean {
  const b = wallBounds(c.zone, ridKey);
  const it = new SetIterator(c, b.min, b.max, budget);
  while (it.next()) {
    if (it.key === ridKey) return true;
    if (it.key > ridKey) return false;
  }
  return false;
}
