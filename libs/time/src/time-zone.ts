import { DAY_MS, MAX_MS, MIN_MS, daysFromCivil, formatOffset, formatWall, HOUR_MS } from './civil-date';

/**
 * A time zone as the engine needs it: the UTC offset at an instant, and RFC 5545 section 3.3.5's
 * reading of a wall time (a nonexistent one takes the offset before the gap, an ambiguous one its
 * first occurrence). Offsets and instants are milliseconds; offsets are whole seconds.
 */
export interface Zone {
  readonly name: string;
  /** True when the offset never changes (UTC, '+05:00', the floating day of all-day series). */
  readonly fixed: boolean;
  offsetAt(instantMs: number): number;
  toInstant(wallMs: number): number;
}

/** Wider than any offset tzdb ever had (local mean times reach about +15:14 and -15:56). */
export const MAX_OFFSET_MS = 16 * HOUR_MS;

class FixedZone implements Zone {
  readonly fixed = true;
  constructor(
    readonly name: string,
    private readonly offset: number,
  ) {}
  offsetAt(): number {
    return this.offset;
  }
  toInstant(wallMs: number): number {
    return wallMs - this.offset;
  }
}

// Cache bounds: a long-running process meets a few hundred zones and a few thousand days each.
const MAX_CACHED_DAYS = 400_000;
const MAX_CACHED_ZONES = 2_000;

/**
 * An IANA zone read through Intl (Node ships full ICU). Offsets are cached per UTC day: the offset at
 * each day's start is read once; a day whose start and end differ holds one transition, found to the
 * second by bisection. One transition per day is enough: in tzdb (checked on 2025 data, 1901-2037)
 * consecutive offset changes of a zone are at least four days apart.
 */
class IanaZone implements Zone {
  readonly fixed = false;
  private readonly dtf: Intl.DateTimeFormat;
  private readonly dayStart = new Map<number, number>();
  private readonly transition = new Map<number, number>();

  constructor(readonly name: string) {
    this.dtf = new Intl.DateTimeFormat('en-US', {
      timeZone: name,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  }

  offsetAt(instantMs: number): number {
    const day = Math.floor(instantMs / DAY_MS);
    const a = this.offsetAtDayStart(day);
    const b = this.offsetAtDayStart(day + 1);
    if (a === b) return a;
    let at = this.transition.get(day);
    if (at === undefined) {
      at = this.findTransition(day * DAY_MS, (day + 1) * DAY_MS, a);
      this.transition.set(day, at);
    }
    return instantMs < at ? a : b;
  }

  toInstant(wallMs: number): number {
    // The offsets a day either side cover any transition near this wall time (offsets stay within
    // +-16 h, transitions are days apart).
    const before = this.offsetAt(wallMs - DAY_MS);
    const after = this.offsetAt(wallMs + DAY_MS);
    const t1 = wallMs - before;
    if (before === after) {
      if (this.offsetAt(t1) === before) return t1;
    }
    const t2 = wallMs - after;
    const valid1 = this.offsetAt(t1) === before;
    const valid2 = this.offsetAt(t2) === after;
    if (valid1 && valid2) return Math.min(t1, t2); // ambiguous: the first occurrence
    if (valid2) return t2;
    return t1; // valid, or nonexistent: the offset before the transition (RFC 5545 3.3.5)
  }

  private offsetAtDayStart(day: number): number {
    let offset = this.dayStart.get(day);
    if (offset === undefined) {
      if (this.dayStart.size >= MAX_CACHED_DAYS) {
        this.dayStart.clear();
        this.transition.clear();
      }
      offset = this.read(day * DAY_MS);
      this.dayStart.set(day, offset);
    }
    return offset;
  }

  private findTransition(lo: number, hi: number, before: number): number {
    while (hi - lo > 1000) {
      const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
      if (this.read(mid) === before) lo = mid;
      else hi = mid;
    }
    return hi;
  }

  /** Offset from Intl: the wall clock it shows for the instant, minus the instant. */
  private read(instantMs: number): number {
    const t = Math.min(Math.max(instantMs, MIN_MS + DAY_MS), MAX_MS);
    const s = this.dtf.format(t);
    const m = /^(\d+)\/(\d+)\/(\d+),? (\d+):(\d+):(\d+)$/.exec(s);
    if (!m) throw new Error(`unexpected Intl output for ${this.name}: ${s}`);
    const wall =
      daysFromCivil(+m[3], +m[1], +m[2]) * DAY_MS + +m[4] * HOUR_MS + +m[5] * 60_000 + +m[6] * 1000;
    return wall - Math.floor(t / 1000) * 1000;
  }
}

export const UTC: Zone = new FixedZone('UTC', 0);

/** The zone of all-day series: dates are wall days with no offset. */
export const FLOATING: Zone = new FixedZone('floating', 0);

const zones = new Map<string, Zone>();

/** A zone at a fixed offset, named by it ('+05:00'). */
export function fixedOffsetZone(name: string, offsetMs: number): Zone {
  const cached = zones.get(name);
  if (cached) return cached;
  const zone = new FixedZone(name, offsetMs);
  zones.set(name, zone);
  return zone;
}
const UTC_NAMES = new Set(['UTC', 'ETC/UTC', 'Z', 'GMT', 'ETC/GMT', 'ZULU', 'ETC/ZULU', 'UCT', 'ETC/UCT']);
const OFFSET_NAME = /^([+-])(\d{2}):?(\d{2})$/;

/**
 * The zone for an IANA name (any case, as Intl accepts it), 'UTC', or a fixed offset '+05:00'; null
 * when Intl does not know the name.
 */
export function resolveZone(name: string): Zone | null {
  const cached = zones.get(name);
  if (cached) return cached;
  if (name.length === 0 || name.length > 64) return null;
  let zone: Zone;
  if (UTC_NAMES.has(name.toUpperCase())) zone = name === 'UTC' ? UTC : new FixedZone(name, 0);
  else {
    const off = OFFSET_NAME.exec(name);
    if (off) {
      const h = +off[2];
      const mi = +off[3];
      if (h > 18 || mi > 59) return null;
      zone = new FixedZone(name, (off[1] === '-' ? -1 : 1) * (h * HOUR_MS + mi * 60_000));
    } else {
      if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return null;
      try {
        zone = new IanaZone(name);
      } catch {
        return null;
      }
    }
  }
  if (zones.size >= MAX_CACHED_ZONES) zones.clear();
  zones.set(name, zone);
  return zone;
}

/**
 * The zone's canonical IANA name (`europe/berlin` -> `Europe/Berlin`), or null when the runtime does not
 * know it. Never throws: Intl's RangeError for an unknown zone is caught here. Intl also takes a bare
 * offset (`+05:00`); a caller that wants IANA names only checks with `isIanaTimeZone` first.
 */
export function canonicalTimeZone(timeZone: unknown): string | null {
  if (typeof timeZone !== 'string' || timeZone.length === 0 || timeZone.length > 64) return null;
  try {
    const name = new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
    return typeof name === 'string' && name.length > 0 ? name : null;
  } catch {
    return null;
  }
}

/**
 * The offset that holds for every wall time of local day `day` (days since 1970-01-01), or null when the
 * offset changes somewhere around that day. Lets a caller skip the full disambiguation of `toInstant`
 * on the ~363 days a year without a transition. Local day `day` covers instants within
 * [day - 16 h, day + 1 + 16 h]: inside these probes, which sit on whole days (cached).
 */
export function steadyOffsetForLocalDay(zone: Zone, day: number): number | null {
  const before = zone.offsetAt((day - 1) * DAY_MS);
  const after = zone.offsetAt((day + 2) * DAY_MS);
  return before === after ? before : null;
}

/**
 * An instant as the caller can use it: the wall time of `timeZone` with that zone's offset at that
 * instant (`2026-12-01T10:00:00+05:00`), milliseconds only when there are any. An unknown zone (a row
 * written before validation), an offset that is not whole minutes (local mean time before 1900) or a
 * year outside 0001-9999 gives the UTC form (`toISOString`).
 */
export function localDateTime(at: Date, timeZone: string): string {
  const ms = at.getTime();
  const zone = resolveZone(timeZone);
  if (!zone) return at.toISOString();
  const offset = zone.offsetAt(ms);
  if (offset % 60_000 !== 0) return at.toISOString();
  const wall = ms + offset;
  if (wall < MIN_MS || wall > MAX_MS) return at.toISOString();
  const millis = ((wall % 1000) + 1000) % 1000;
  const fraction = millis ? `.${String(millis).padStart(3, '0')}` : '';
  return `${formatWall(wall)}${fraction}${formatOffset(offset)}`;
}

/**
 * An IANA time zone name (`Asia/Almaty`, `Etc/GMT-5`, `UTC`; any case, as Intl accepts it). Since
 * Node 24, Intl (and class-validator's `IsTimeZone`) also take a bare offset (`+05:00`, `-0500`),
 * which names no zone: no rules, no daylight saving, nothing recurrence or display can follow.
 */
export function isIanaTimeZone(v: unknown): v is string {
  if (typeof v !== 'string' || v.length === 0 || v.length > 64 || !/^[A-Za-z]/.test(v)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: v });
    return true;
  } catch {
    return false;
  }
}
