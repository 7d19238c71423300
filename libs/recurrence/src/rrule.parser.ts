import { WEEKDAYS } from '@platform/time';
import { parseIcalDateOrDateTime, type IcalDateValue } from './ical-values';
import { RecurrenceReason as R, invalid } from './recurrence.errors';

/** Ordered as python-dateutil orders them: a smaller number is a coarser period. */
export enum Freq {
  YEARLY = 0,
  MONTHLY = 1,
  WEEKLY = 2,
  DAILY = 3,
  HOURLY = 4,
  MINUTELY = 5,
  SECONDLY = 6,
}

const FREQ_NAMES: Record<string, Freq> = {
  YEARLY: Freq.YEARLY,
  MONTHLY: Freq.MONTHLY,
  WEEKLY: Freq.WEEKLY,
  DAILY: Freq.DAILY,
  HOURLY: Freq.HOURLY,
  MINUTELY: Freq.MINUTELY,
  SECONDLY: Freq.SECONDLY,
};

export interface ByDay {
  /** MO=0 ... SU=6. */
  weekday: number;
  /** 0 for every such weekday of the period; +-1..53 for the n-th (from the end when negative). */
  n: number;
}

/** An RRULE (or EXRULE) value as written: validated, lists sorted and without duplicates. */
export interface RecurrenceRule {
  freq: Freq;
  interval: number;
  count: number | null;
  until: IcalDateValue | null;
  wkst: number;
  bySecond: number[] | null;
  byMinute: number[] | null;
  byHour: number[] | null;
  byDay: ByDay[] | null;
  byMonthDay: number[] | null;
  byYearDay: number[] | null;
  byWeekNo: number[] | null;
  byMonth: number[] | null;
  bySetPos: number[] | null;
}

/** INTERVAL and COUNT beyond these are refused; any rule still ends at year 9999. */
export const MAX_INTERVAL = 2_147_483_647;
export const MAX_COUNT = Number.MAX_SAFE_INTEGER;
const MAX_LIST = 1_000;

type ListPart =
  'BYSECOND' | 'BYMINUTE' | 'BYHOUR' | 'BYMONTHDAY' | 'BYYEARDAY' | 'BYWEEKNO' | 'BYMONTH' | 'BYSETPOS';

/** [min, max, signed]: signed lists take +-min..max and never 0. */
const LIST_RANGES: Record<ListPart, [number, number, boolean]> = {
  BYSECOND: [0, 60, false],
  BYMINUTE: [0, 59, false],
  BYHOUR: [0, 23, false],
  BYMONTHDAY: [1, 31, true],
  BYYEARDAY: [1, 366, true],
  BYWEEKNO: [1, 53, true],
  BYMONTH: [1, 12, false],
  BYSETPOS: [1, 366, true],
};

const KNOWN_PARTS = new Set([
  'FREQ',
  'UNTIL',
  'COUNT',
  'INTERVAL',
  'WKST',
  'BYDAY',
  ...Object.keys(LIST_RANGES),
]);
/** RFC 7529 (non-Gregorian rules) parts: recognised, refused. */
const UNSUPPORTED_PARTS = new Set(['RSCALE', 'SKIP']);

function parseInteger(text: string, signed: boolean): number | null {
  if (!(signed ? /^[+-]?\d{1,9}$/ : /^\+?\d{1,9}$/).test(text)) return null;
  return Number(text);
}

function parseList(part: ListPart, value: string, raw: string, line?: number): number[] {
  const [min, max, signed] = LIST_RANGES[part];
  const items = value.split(',');
  if (items.length > MAX_LIST) throw invalid(R.TOO_LARGE, raw, line);
  const out = new Set<number>();
  for (const item of items) {
    const n = parseInteger(item, signed);
    if (n === null) throw invalid(R.BAD_VALUE, raw, line);
    const abs = Math.abs(n);
    if (abs < min || abs > max || (signed && n === 0) || (!signed && n < 0))
      throw invalid(R.OUT_OF_RANGE, raw, line);
    out.add(n);
  }
  return [...out].sort((a, b) => a - b);
}

const BYDAY_ITEM = /^([+-]?)(\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/;

function parseByDay(value: string, raw: string, line?: number): ByDay[] {
  const items = value.split(',');
  if (items.length > MAX_LIST) throw invalid(R.TOO_LARGE, raw, line);
  const seen = new Map<string, ByDay>();
  for (const item of items) {
    const m = BYDAY_ITEM.exec(item);
    if (!m || (m[1] !== '' && m[2] === undefined)) throw invalid(R.BAD_VALUE, raw, line);
    const n = m[2] === undefined ? 0 : (m[1] === '-' ? -1 : 1) * Number(m[2]);
    if (m[2] !== undefined && (Math.abs(n) < 1 || Math.abs(n) > 53)) throw invalid(R.OUT_OF_RANGE, raw, line);
    const weekday = WEEKDAYS.indexOf(m[3] as (typeof WEEKDAYS)[number]);
    seen.set(`${n}${m[3]}`, { weekday, n });
  }
  return [...seen.values()].sort((a, b) => a.n - b.n || a.weekday - b.weekday);
}

/**
 * Parses an RRULE/EXRULE value ('FREQ=WEEKLY;BYDAY=MO;COUNT=10'), names and values in any case. Every
 * RFC 5545 section 3.3.10 "MUST" is enforced; anything else is a RecurrenceError naming the part.
 */
export function parseRule(value: string, line?: number): RecurrenceRule {
  const upper = value.toUpperCase();
  const parts = upper.split(';');
  // A trailing ';' is tolerated (some generators write one); an empty part anywhere else is not.
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  const seen = new Map<string, { value: string; raw: string }>();
  for (const raw of parts) {
    const eq = raw.indexOf('=');
    if (eq <= 0 || raw.indexOf('=', eq + 1) !== -1 || eq === raw.length - 1)
      throw invalid(R.BAD_VALUE, raw || '(empty part)', line);
    const name = raw.slice(0, eq);
    if (UNSUPPORTED_PARTS.has(name)) throw invalid(R.UNSUPPORTED_PART, raw, line);
    if (!KNOWN_PARTS.has(name)) throw invalid(R.UNKNOWN_PART, raw, line);
    if (seen.has(name)) throw invalid(R.DUPLICATE_PART, raw, line);
    seen.set(name, { value: raw.slice(eq + 1), raw });
  }

  const freqPart = seen.get('FREQ');
  if (!freqPart) throw invalid(R.MISSING_FREQ, value, line);
  const freq = FREQ_NAMES[freqPart.value];
  if (freq === undefined) throw invalid(R.BAD_VALUE, freqPart.raw, line);

  const rule: RecurrenceRule = {
    freq,
    interval: 1,
    count: null,
    until: null,
    wkst: 0,
    bySecond: null,
    byMinute: null,
    byHour: null,
    byDay: null,
    byMonthDay: null,
    byYearDay: null,
    byWeekNo: null,
    byMonth: null,
    bySetPos: null,
  };

  for (const [name, { value: v, raw }] of seen) {
    switch (name) {
      case 'FREQ':
        break;
      case 'INTERVAL': {
        const n = /^\d{1,10}$/.test(v) ? Number(v) : NaN;
        if (Number.isNaN(n)) throw invalid(R.BAD_VALUE, raw, line);
        if (n < 1 || n > MAX_INTERVAL) throw invalid(R.OUT_OF_RANGE, raw, line);
        rule.interval = n;
        break;
      }
      case 'COUNT': {
        const n = /^\d{1,16}$/.test(v) ? Number(v) : NaN;
        if (Number.isNaN(n)) throw invalid(R.BAD_VALUE, raw, line);
        if (n < 1 || n > MAX_COUNT) throw invalid(R.OUT_OF_RANGE, raw, line);
        rule.count = n;
        break;
      }
      case 'UNTIL': {
        const until = parseIcalDateOrDateTime(v);
        if (!until) throw invalid(R.BAD_VALUE, raw, line);
        rule.until = until;
        break;
      }
      case 'WKST': {
        const wd = WEEKDAYS.indexOf(v as (typeof WEEKDAYS)[number]);
        if (wd < 0) throw invalid(R.BAD_VALUE, raw, line);
        rule.wkst = wd;
        break;
      }
      case 'BYDAY':
        rule.byDay = parseByDay(v, raw, line);
        break;
      case 'BYSECOND':
        rule.bySecond = parseList(name, v, raw, line);
        break;
      case 'BYMINUTE':
        rule.byMinute = parseList(name, v, raw, line);
        break;
      case 'BYHOUR':
        rule.byHour = parseList(name, v, raw, line);
        break;
      case 'BYMONTHDAY':
        rule.byMonthDay = parseList(name, v, raw, line);
        break;
      case 'BYYEARDAY':
        rule.byYearDay = parseList(name, v, raw, line);
        break;
      case 'BYWEEKNO':
        rule.byWeekNo = parseList(name, v, raw, line);
        break;
      case 'BYMONTH':
        rule.byMonth = parseList(name, v, raw, line);
        break;
      case 'BYSETPOS':
        rule.bySetPos = parseList(name, v, raw, line);
        break;
    }
  }

  const rawOf = (name: string) => seen.get(name)?.raw ?? name;
  if (rule.count !== null && rule.until !== null) throw invalid(R.COUNT_WITH_UNTIL, value, line);
  if (rule.byWeekNo && freq !== Freq.YEARLY) throw invalid(R.PART_NOT_ALLOWED, rawOf('BYWEEKNO'), line);
  if (rule.byYearDay && (freq === Freq.DAILY || freq === Freq.WEEKLY || freq === Freq.MONTHLY)) {
    throw invalid(R.PART_NOT_ALLOWED, rawOf('BYYEARDAY'), line);
  }
  if (rule.byMonthDay && freq === Freq.WEEKLY) throw invalid(R.PART_NOT_ALLOWED, rawOf('BYMONTHDAY'), line);
  if (rule.byDay?.some((d) => d.n !== 0)) {
    if (freq !== Freq.MONTHLY && freq !== Freq.YEARLY)
      throw invalid(R.PART_NOT_ALLOWED, rawOf('BYDAY'), line);
    if (freq === Freq.YEARLY && rule.byWeekNo) throw invalid(R.PART_NOT_ALLOWED, rawOf('BYDAY'), line);
  }
  if (
    rule.bySetPos &&
    seen.size === [...seen.keys()].filter((k) => !k.startsWith('BY') || k === 'BYSETPOS').length
  ) {
    throw invalid(R.BYSETPOS_ALONE, rawOf('BYSETPOS'), line);
  }
  return rule;
}
