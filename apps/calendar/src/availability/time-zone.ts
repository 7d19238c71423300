/**
 * Wall time <-> instant in an IANA zone, on top of `Intl.DateTimeFormat` (the zone rules are the
 * runtime's ICU/tzdata; nothing is bundled here).
 *
 * A "local" value is a wall-clock time written as if it were UTC: `Date.UTC(2025, 2, 30, 2, 30)` means
 * "30 March 2025, 02:30 on the wall clock", in whatever zone is being talked about.
 */

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * Offsets already asked for, per zone and instant. Working hours ask for the same instants over and over
 * (every day boundary, for every person of a zone), and one `formatToParts` costs about 10 µs. Bounded:
 * a zone's table is dropped whole when it grows past the limit.
 */
const offsets = new Map<string, Map<number, number>>();
const OFFSET_CACHE_LIMIT = 20_000;

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/**
 * The zone's canonical name (`europe/berlin` -> `Europe/Berlin`), or null when the runtime does not know
 * it. Never throws: Intl's RangeError for an unknown zone is caught here.
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

/** The zone's UTC offset at an instant, in ms (Berlin in summer: +7,200,000). The zone must be valid. */
export function zoneOffsetMs(timeZone: string, instant: number): number {
  // Offsets change on whole seconds; flooring keeps the cache small and the arithmetic exact.
  const t = Math.floor(instant / 1000) * 1000;
  let cache = offsets.get(timeZone);
  if (!cache) {
    cache = new Map();
    offsets.set(timeZone, cache);
  }
  const hit = cache.get(t);
  if (hit !== undefined) return hit;
  let year = 0;
  let month = 1;
  let day = 1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  for (const part of formatter(timeZone).formatToParts(t)) {
    const n = Number(part.value);
    switch (part.type) {
      case 'year':
        year = n;
        break;
      case 'month':
        month = n;
        break;
      case 'day':
        day = n;
        break;
      case 'hour':
        hour = n % 24; // some ICU builds still say 24 for midnight
        break;
      case 'minute':
        minute = n;
        break;
      case 'second':
        second = n;
        break;
    }
  }
  // Date.UTC is safe here: this module's instants are years 1969..9999 (it reads 0..99 as 19xx).
  const offset = Date.UTC(year, month - 1, day, hour, minute, second) - t;
  if (cache.size >= OFFSET_CACHE_LIMIT) cache.clear();
  cache.set(t, offset);
  return offset;
}

/** The wall-clock time at an instant, as a "local" value. */
export function instantToLocal(timeZone: string, instant: number): number {
  return instant + zoneOffsetMs(timeZone, instant);
}

/**
 * The instant of a wall-clock time, disambiguated as RFC 5545 (3.3.5) and Temporal's `compatible` do:
 *
 * - a time that occurs twice (the repeated hour when clocks fall back) is its FIRST occurrence: New York
 *   2025-11-02 01:30 is 01:30 EDT (05:30Z), not 01:30 EST;
 * - a time that does not exist (skipped when clocks spring forward) is read with the offset in force
 *   BEFORE the gap, which moves it forward by the length of the gap: Berlin 2025-03-30 02:30 is 03:30
 *   CEST (01:30Z), New York 2025-03-09 02:30 is 03:30 EDT (07:30Z).
 *
 * Assumes at most one offset change within a day either side of the time, which holds for every zone in
 * tzdata since long before 1970.
 */
export function localToInstant(timeZone: string, local: number): number {
  const before = zoneOffsetMs(timeZone, local - DAY_MS);
  const after = zoneOffsetMs(timeZone, local + DAY_MS);
  if (before === after) return local - before;
  const early = local - before;
  const late = local - after;
  const earlyFits = zoneOffsetMs(timeZone, early) === before;
  const lateFits = zoneOffsetMs(timeZone, late) === after;
  if (earlyFits && lateFits) return Math.min(early, late);
  if (earlyFits) return early;
  if (lateFits) return late;
  return early; // in the gap: the offset before it
}

/**
 * The offset that holds for every wall time of local day `day` (days since 1970-01-01), or null when the
 * offset changes somewhere around that day. Lets a caller skip the full disambiguation on the ~363 days
 * a year without a transition. The probes sit on whole days, so consecutive days share them (cached).
 */
export function steadyOffsetForLocalDay(timeZone: string, day: number): number | null {
  // Local day `day` covers instants within [day - 14h, day + 1 + 12h] (+ a gap): inside these probes.
  const before = zoneOffsetMs(timeZone, (day - 1) * DAY_MS);
  const after = zoneOffsetMs(timeZone, (day + 2) * DAY_MS);
  return before === after ? before : null;
}
