/**
 * Instants as the caller can use them: the wall time of the event's IANA zone with that zone's offset
 * at that instant (`2026-12-01T10:00:00+05:00`), as the event was sent. One `Intl.DateTimeFormat` per
 * zone, created once: constructing one costs far more than formatting with it.
 */
const formats = new Map<string, Intl.DateTimeFormat | null>();
const MAX_ZONES = 1000;

function formatOf(timeZone: string): Intl.DateTimeFormat | null {
  let f = formats.get(timeZone);
  if (f !== undefined) return f;
  try {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  } catch {
    f = null; // a zone Intl does not know (a row written before validation): shown in UTC
  }
  // Zones are IANA names checked at write time, so the set is small; the bound is only a guard.
  if (formats.size >= MAX_ZONES) formats.clear();
  formats.set(timeZone, f);
  return f;
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

const DAY_MS = 86_400_000;
/** Offsets at UTC midnights, per zone: most days have no transition, so two lookups answer a time. */
const midnights = new Map<string, Map<number, number | null>>();
const MAX_DAYS_PER_ZONE = 20_000;

function offsetAtMidnight(day: number, timeZone: string): number | null {
  let days = midnights.get(timeZone);
  if (!days) midnights.set(timeZone, (days = new Map()));
  let offset = days.get(day);
  if (offset === undefined) {
    offset = exactOffsetMs(day * DAY_MS, timeZone);
    if (days.size >= MAX_DAYS_PER_ZONE) days.clear();
    days.set(day, offset);
  }
  return offset;
}

/**
 * The zone's offset from UTC at `ms` in milliseconds, or null when the zone is unknown. When a UTC day
 * begins and ends at the same offset there is no transition inside it (tzdb changes a zone's offset
 * at most once in four days, decision 0016), so Intl is asked only at midnights and on transition days.
 */
export function zoneOffsetMs(ms: number, timeZone: string): number | null {
  const day = Math.floor(ms / DAY_MS);
  const start = offsetAtMidnight(day, timeZone);
  if (start === null) return null;
  return start === offsetAtMidnight(day + 1, timeZone) ? start : exactOffsetMs(ms, timeZone);
}

function exactOffsetMs(ms: number, timeZone: string): number | null {
  const f = formatOf(timeZone);
  if (!f) return null;
  const wholeSecond = ms - (((ms % 1000) + 1000) % 1000);
  let year = 0;
  let month = 1;
  let day = 1;
  let hour = 0;
  let minute = 0;
  let second = 0;
  let bc = false;
  for (const p of f.formatToParts(wholeSecond)) {
    switch (p.type) {
      case 'year':
        year = Number(p.value);
        break;
      case 'month':
        month = Number(p.value);
        break;
      case 'day':
        day = Number(p.value);
        break;
      case 'hour':
        hour = Number(p.value);
        break;
      case 'minute':
        minute = Number(p.value);
        break;
      case 'second':
        second = Number(p.value);
        break;
      case 'era':
        bc = p.value.startsWith('B');
        break;
    }
  }
  const wall = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999. 1 BC is year 0.
  wall.setUTCFullYear(bc ? 1 - year : year, month - 1, day);
  wall.setUTCHours(hour, minute, second, 0);
  return wall.getTime() - wholeSecond;
}

/**
 * `YYYY-MM-DDTHH:mm:ss[.sss]±HH:MM` in `timeZone`; milliseconds only when there are any. An unknown
 * zone, or an offset that is not whole minutes (local mean time before 1900), gives the UTC form.
 */
export function localDateTime(at: Date, timeZone: string): string {
  const ms = at.getTime();
  const offset = zoneOffsetMs(ms, timeZone);
  if (offset === null || offset % 60000 !== 0) return at.toISOString();
  const local = new Date(ms + offset);
  const year = local.getUTCFullYear();
  if (year < 0 || year > 9999) return at.toISOString();
  const millis = local.getUTCMilliseconds();
  const minutes = Math.abs(offset) / 60000;
  return (
    `${pad(year, 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
    `T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    `${millis ? `.${pad(millis, 3)}` : ''}${offset < 0 ? '-' : '+'}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`
  );
}
