import {
  DAY_MS,
  HOUR_MS,
  MAX_YEAR,
  civilFromDays,
  daysFromCivil,
  daysInMonth,
  daysInYear,
  weekdayOf,
} from '@platform/time';
import { Freq, type RecurrenceRule } from './rrule.parser';

/**
 * A rule with RFC 5545's defaults filled in from DTSTART and every BYxxx list turned into a lookup
 * table. "Expand" and "limit" (the table in RFC 5545 3.3.10) both become one test per day of the
 * period: a day is a candidate when it passes every day filter; the times of day are the product of
 * BYHOUR x BYMINUTE x BYSECOND (or DTSTART's, for parts finer than FREQ is not).
 */
export interface ExpandedRule {
  freq: Freq;
  interval: number;
  count: number | null;
  wkst: number;
  month: Uint8Array | null;
  /** Signed lists: index n for +n, SIGNED + n for -n. */
  weekNo: Uint8Array | null;
  yearDay: Uint8Array | null;
  monthDay: Uint8Array | null;
  /** Weekday mask for BYDAY without ordinal (or WEEKLY's default); null when no weekday filter. */
  weekday: Uint8Array | null;
  /** (n + 53) * 7 + weekday for BYDAY with ordinal n; null when there are none. */
  weekdayNth: Uint8Array | null;
  /** The n-th weekday counts within the year (YEARLY without BYMONTH) rather than the month. */
  nthInYear: boolean;
  /** BYHOUR, BYMINUTE, BYSECOND as written: limits for the sub-daily FREQs. */
  hourLimit: number[] | null;
  minuteLimit: number[] | null;
  secondLimit: number[] | null;
  /** Seconds into the hour each HOURLY period expands to (BYMINUTE x BYSECOND). */
  hourOffsets: number[];
  /** Seconds into the minute each MINUTELY period expands to (BYSECOND). */
  seconds: number[];
  /** Seconds of the day of every candidate time, sorted: for DAILY and coarser. */
  timesOfDay: number[];
  setPos: number[] | null;
}

function mask(size: number, values: number[] | null, pick: (v: number) => number | null): Uint8Array | null {
  if (!values) return null;
  const m = new Uint8Array(size);
  for (const v of values) {
    const i = pick(v);
    if (i !== null) m[i] = 1;
  }
  return m;
}

/** Offset of negative values in the masks of signed lists (+-1..366). */
const SIGNED = 400;
const signed = (v: number) => (v > 0 ? v : SIGNED - v);

/** `start`: DTSTART's wall time (ms as if UTC). `dateOnly`: an all-day series (times are midnight). */
export function expandRule(rule: RecurrenceRule, startWallMs: number, dateOnly: boolean): ExpandedRule {
  const startDay = Math.floor(startWallMs / DAY_MS);
  const secOfDay = Math.floor((startWallMs - startDay * DAY_MS) / 1000);
  const { m: startMonth, d: startDate } = civilFromDays(startDay);
  let { byMonth, byMonthDay, byDay } = rule;
  const noDayParts = !rule.byWeekNo && !rule.byYearDay && !byMonthDay && !byDay;
  if (noDayParts && rule.freq === Freq.YEARLY) {
    byMonth = byMonth ?? [startMonth];
    byMonthDay = [startDate];
  } else if (noDayParts && rule.freq === Freq.MONTHLY) {
    byMonthDay = [startDate];
  } else if (noDayParts && rule.freq === Freq.WEEKLY) {
    byDay = [{ weekday: weekdayOf(startDay), n: 0 }];
  }
  const plain = (byDay ?? []).filter((d) => d.n === 0).map((d) => d.weekday);
  const nth = (byDay ?? []).filter((d) => d.n !== 0).map((d) => (d.n + 53) * 7 + d.weekday);
  // Parts finer than FREQ default to DTSTART's; second 60 never exists on this time scale, so such
  // candidates are skipped like February 30.
  const hours = rule.byHour ?? [Math.floor(secOfDay / 3600)];
  const minutes = rule.byMinute ?? [Math.floor(secOfDay / 60) % 60];
  const seconds = (rule.bySecond ?? [secOfDay % 60]).filter((s) => s < 60);
  const timesOfDay: number[] = [];
  if (rule.freq <= Freq.DAILY) {
    if (dateOnly) timesOfDay.push(0);
    else
      for (const h of hours)
        for (const mi of minutes) for (const s of seconds) timesOfDay.push(h * 3600 + mi * 60 + s);
  }
  return {
    freq: rule.freq,
    interval: rule.interval,
    count: rule.count,
    wkst: rule.wkst,
    month: mask(13, byMonth, (v) => v),
    weekNo: mask(2 * SIGNED, rule.byWeekNo, signed),
    yearDay: mask(2 * SIGNED, rule.byYearDay, signed),
    monthDay: mask(2 * SIGNED, byMonthDay, signed),
    weekday: byDay ? mask(7, plain, (v) => v) : null,
    weekdayNth: nth.length ? mask(107 * 7, nth, (v) => v) : null,
    nthInYear: rule.freq === Freq.YEARLY && !byMonth,
    hourLimit: rule.byHour,
    minuteLimit: rule.byMinute,
    secondLimit: rule.bySecond,
    hourOffsets: minutes.flatMap((mi) => seconds.map((sec) => mi * 60 + sec)),
    seconds,
    timesOfDay,
    setPos: rule.bySetPos,
  };
}

const NONE: readonly number[] = [];
const ZERO: readonly number[] = [0];

/** Wall time just after 9999-12-31: no period starts there. */
const END_WALL_MS = daysFromCivil(MAX_YEAR + 1, 1, 1) * DAY_MS;

/** First day of week 1 of year y: the WKST-started week holding at least four days of y (RFC 5545). */
function weekOneStart(y: number, wkst: number): number {
  const jan1 = daysFromCivil(y, 1, 1);
  const delta = (weekdayOf(jan1) - wkst + 7) % 7;
  return delta <= 3 ? jan1 - delta : jan1 + 7 - delta;
}

/** Per-year facts the day filters need, computed once per year visited. */
class YearInfo {
  year = NaN;
  start = 0;
  length = 0;
  /** Week-1 starts of year-1, year, year+1, year+2 (only with BYWEEKNO). */
  w0 = 0;
  w1 = 0;
  w2 = 0;
  w3 = 0;

  load(y: number, r: ExpandedRule): void {
    if (y === this.year) return;
    this.year = y;
    this.start = daysFromCivil(y, 1, 1);
    this.length = daysInYear(y);
    if (r.weekNo) {
      this.w0 = weekOneStart(y - 1, r.wkst);
      this.w1 = weekOneStart(y, r.wkst);
      this.w2 = weekOneStart(y + 1, r.wkst);
      this.w3 = weekOneStart(y + 2, r.wkst);
    }
  }
}

/**
 * Does day `z` (date y-m-d) pass every day filter? A day is tagged with its week number in whichever
 * week-numbering year it belongs to, so week 1 reaches back into late December and the last week
 * into early January, as in python-dateutil (a YEARLY period is the calendar year's days).
 */
function dayMatches(
  r: ExpandedRule,
  yi: YearInfo,
  z: number,
  m: number,
  d: number,
  monthLen: number,
): boolean {
  if (r.month && !r.month[m]) return false;
  if (r.monthDay && !(r.monthDay[d] || r.monthDay[SIGNED + monthLen - d + 1])) return false;
  if (r.yearDay) {
    const yday = z - yi.start + 1;
    if (!(r.yearDay[yday] || r.yearDay[SIGNED + yi.length - yday + 1])) return false;
  }
  if (r.weekday) {
    const wd = weekdayOf(z);
    if (!r.weekday[wd]) {
      if (!r.weekdayNth) return false;
      const idx = r.nthInYear ? z - yi.start : d - 1;
      const len = r.nthInYear ? yi.length : monthLen;
      const fromStart = Math.floor(idx / 7) + 1;
      const fromEnd = Math.floor((len - 1 - idx) / 7) + 1;
      if (!(r.weekdayNth[(53 + fromStart) * 7 + wd] || r.weekdayNth[(53 - fromEnd) * 7 + wd])) return false;
    }
  }
  if (r.weekNo) {
    let first: number;
    let next: number;
    if (z < yi.w1) {
      first = yi.w0;
      next = yi.w1;
    } else if (z >= yi.w2) {
      first = yi.w2;
      next = yi.w3;
    } else {
      first = yi.w1;
      next = yi.w2;
    }
    const week = Math.floor((z - first) / 7) + 1;
    const weeks = (next - first) / 7;
    if (!(r.weekNo[week] || r.weekNo[SIGNED + weeks - week + 1])) return false;
  }
  return true;
}

/** Shared by every stream of one call: how much work is left before the engine gives up. */
export interface Budget {
  /** Candidates and periods examined so far. */
  work: number;
  maxWork: number;
  /** Consecutive periods without a candidate allowed in one stream. */
  maxEmpty: number;
  stopped: null | 'ITERATION_CAP' | 'EMPTY_ITERATION_CAP';
}

/**
 * Walks a rule's periods (every INTERVAL-th year, month, week, day, hour, minute or second from
 * DTSTART's) and yields each period's candidate wall times in ascending order, BYSETPOS applied.
 * Stops after year 9999, past `horizonWallMs`, or when the budget runs out.
 */
export class PeriodWalker {
  private index: number;
  private readonly yi = new YearInfo();
  private days: number[] = [];
  /** Candidate times: seconds after `timeBase` (0, or the sub-daily period's start in its day). */
  private times: readonly number[] = NONE;
  private timeBase = 0;
  private lastDay = NaN;
  private lastDayOk = false;
  /** Current period's candidates: either positions (BYSETPOS) or the days x times product. */
  private picks: number[] | null = null;
  private pickAt = 0;
  private dayAt = 0;
  private timeAt = 0;
  private empty = 0;
  private done = false;

  constructor(
    private readonly r: ExpandedRule,
    startWallMs: number,
    private readonly horizonWallMs: number,
    private readonly budget: Budget,
    hintWallMs: number,
  ) {
    const startDay = Math.floor(startWallMs / DAY_MS);
    switch (r.freq) {
      case Freq.YEARLY:
        this.index = civilFromDays(startDay).y;
        break;
      case Freq.MONTHLY: {
        const { y, m } = civilFromDays(startDay);
        this.index = y * 12 + m - 1;
        break;
      }
      case Freq.WEEKLY:
        this.index = startDay - ((weekdayOf(startDay) - r.wkst + 7) % 7);
        break;
      case Freq.DAILY:
        this.index = startDay;
        break;
      default:
        this.index = Math.floor(startWallMs / this.unitMs());
    }
    // Without COUNT nothing before the hint matters: jump to the last period starting at or before it.
    if (r.count === null && hintWallMs > startWallMs) this.skipTo(hintWallMs);
  }

  private unitMs(): number {
    return this.r.freq === Freq.HOURLY ? HOUR_MS : this.r.freq === Freq.MINUTELY ? 60_000 : 1000;
  }

  /** Index (in the walker's unit) of the period holding `wallMs`, ignoring INTERVAL alignment. */
  private indexOf(wallMs: number): number {
    const day = Math.floor(wallMs / DAY_MS);
    switch (this.r.freq) {
      case Freq.YEARLY:
        return civilFromDays(day).y;
      case Freq.MONTHLY: {
        const { y, m } = civilFromDays(day);
        return y * 12 + m - 1;
      }
      case Freq.WEEKLY:
        return day;
      case Freq.DAILY:
        return day;
      default:
        return Math.floor(wallMs / this.unitMs());
    }
  }

  private skipTo(wallMs: number): void {
    const step = this.r.freq === Freq.WEEKLY ? this.r.interval * 7 : this.r.interval;
    const k = Math.floor((this.indexOf(wallMs) - this.index) / step);
    if (k > 0) this.index += k * step;
  }

  private periodStartWall(): number {
    switch (this.r.freq) {
      case Freq.YEARLY:
        return daysFromCivil(this.index, 1, 1) * DAY_MS;
      case Freq.MONTHLY:
        return daysFromCivil(Math.floor(this.index / 12), (this.index % 12) + 1, 1) * DAY_MS;
      case Freq.WEEKLY:
      case Freq.DAILY:
        return this.index * DAY_MS;
      default:
        return this.index * this.unitMs();
    }
  }

  private advance(): void {
    this.index += this.r.freq === Freq.WEEKLY ? this.r.interval * 7 : this.r.interval;
  }

  /** Advances the sub-daily index by whole intervals to the first period at or after `targetIndex`. */
  private advanceTo(targetIndex: number): void {
    const n = Math.max(1, Math.ceil((targetIndex - this.index) / this.r.interval));
    this.index += n * this.r.interval;
  }

  /** Next candidate wall time, or NaN when the walk is over. */
  next(): number {
    for (;;) {
      const more = this.picks ? this.pickAt < this.picks.length : this.dayAt < this.days.length;
      if (more && ++this.budget.work > this.budget.maxWork) {
        // A period can hold millions of candidates (every second of a year): each one is work.
        this.budget.stopped = 'ITERATION_CAP';
        this.done = true;
        return NaN;
      }
      if (this.picks) {
        if (this.pickAt < this.picks.length) return this.picks[this.pickAt++];
      } else if (this.dayAt < this.days.length) {
        const wall = this.days[this.dayAt] * DAY_MS + (this.timeBase + this.times[this.timeAt]) * 1000;
        if (++this.timeAt === this.times.length) {
          this.timeAt = 0;
          this.dayAt++;
        }
        return wall;
      }
      if (this.done || !this.fill()) {
        this.done = true;
        return NaN;
      }
    }
  }

  /** Loads the next non-empty period; false when the walk is over. */
  private fill(): boolean {
    const b = this.budget;
    for (;;) {
      if (b.stopped) return false;
      const start = this.periodStartWall();
      if (!(start <= this.horizonWallMs) || start >= END_WALL_MS) return false;
      if (++b.work > b.maxWork) {
        b.stopped = 'ITERATION_CAP';
        return false;
      }
      this.days.length = 0;
      this.times = this.r.timesOfDay;
      this.timeBase = 0;
      this.loadPeriod();
      this.picks = null;
      this.dayAt = 0;
      this.timeAt = 0;
      const total = this.days.length * this.times.length;
      if (total > 0 && this.r.setPos) {
        const picks: number[] = [];
        for (const p of this.r.setPos) {
          const i = p > 0 ? p - 1 : total + p;
          if (i < 0 || i >= total) continue;
          const di = Math.floor(i / this.times.length);
          picks.push(
            this.days[di] * DAY_MS + (this.timeBase + this.times[i - di * this.times.length]) * 1000,
          );
        }
        picks.sort((a, c) => a - c);
        this.picks = picks.filter((v, i) => i === 0 || v !== picks[i - 1]);
        this.pickAt = 0;
      }
      const produced = this.picks ? this.picks.length : total;
      if (produced > 0) {
        this.empty = 0;
        return true;
      }
      if (++this.empty > b.maxEmpty) {
        b.stopped = 'EMPTY_ITERATION_CAP';
        return false;
      }
    }
  }

  /** Fills `days` (and `times` for sub-daily rules) for the current period, then advances. */
  private loadPeriod(): void {
    const r = this.r;
    const yi = this.yi;
    switch (r.freq) {
      case Freq.YEARLY: {
        const y = this.index;
        yi.load(y, r);
        let z = yi.start;
        for (let m = 1; m <= 12; m++) {
          const len = daysInMonth(y, m);
          if (!r.month || r.month[m]) {
            for (let d = 1; d <= len; d++)
              if (dayMatches(r, yi, z + d - 1, m, d, len)) this.days.push(z + d - 1);
          }
          z += len;
        }
        this.advance();
        return;
      }
      case Freq.MONTHLY: {
        const y = Math.floor(this.index / 12);
        const m = (this.index % 12) + 1;
        if (!r.month || r.month[m]) {
          yi.load(y, r);
          const z = daysFromCivil(y, m, 1);
          const len = daysInMonth(y, m);
          for (let d = 1; d <= len; d++)
            if (dayMatches(r, yi, z + d - 1, m, d, len)) this.days.push(z + d - 1);
        }
        this.advance();
        return;
      }
      case Freq.WEEKLY:
        for (let z = this.index; z < this.index + 7; z++) if (this.dayOk(z)) this.days.push(z);
        this.advance();
        return;
      case Freq.DAILY:
        if (this.dayOk(this.index)) this.days.push(this.index);
        this.advance();
        return;
      default:
        this.loadSubDaily();
    }
  }

  private dayOk(z: number): boolean {
    if (z !== this.lastDay) {
      const { y, m, d } = civilFromDays(z);
      this.yi.load(y, this.r);
      this.lastDay = z;
      this.lastDayOk = dayMatches(this.r, this.yi, z, m, d, daysInMonth(y, m));
    }
    return this.lastDayOk;
  }

  /**
   * HOURLY, MINUTELY, SECONDLY: the period is one unit of one day. A day (or hour, or minute) that a
   * limit rules out is skipped whole, in steps of INTERVAL, so sparse rules stay cheap.
   */
  private loadSubDaily(): void {
    const r = this.r;
    const unit = this.unitMs();
    const perDay = DAY_MS / unit;
    const z = Math.floor(this.index / perDay);
    if (!this.dayOk(z)) {
      this.advanceTo((z + 1) * perDay);
      return;
    }
    const secOfDay = ((this.index - z * perDay) * unit) / 1000;
    const h = Math.floor(secOfDay / 3600);
    if (r.freq !== Freq.HOURLY && r.hourLimit && !r.hourLimit.includes(h)) {
      this.advanceTo(Math.floor((z * DAY_MS + (h + 1) * HOUR_MS) / unit));
      return;
    }
    const mi = Math.floor(secOfDay / 60) % 60;
    let times: readonly number[] = NONE;
    if (r.freq === Freq.HOURLY) {
      if (!r.hourLimit || r.hourLimit.includes(h)) times = r.hourOffsets;
      this.timeBase = h * 3600;
    } else if (r.freq === Freq.MINUTELY) {
      if (!r.minuteLimit || r.minuteLimit.includes(mi)) times = r.seconds;
      this.timeBase = h * 3600 + mi * 60;
    } else if (r.minuteLimit && !r.minuteLimit.includes(mi)) {
      this.advanceTo(Math.floor((z * DAY_MS + h * HOUR_MS + (mi + 1) * 60_000) / unit));
      return;
    } else {
      if (!r.secondLimit || r.secondLimit.includes(secOfDay % 60)) times = ZERO;
      this.timeBase = secOfDay;
    }
    if (times.length) this.days.push(z);
    this.times = times;
    this.advance();
  }
}
