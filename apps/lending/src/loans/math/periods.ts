import { addMonths, type Day } from './dates';
import { LoanMathErrorCode as C, mathError } from './errors';

/** Repayment frequency; the periodic rate of an annuity is the annual rate / periods per year. */
export type Frequency = 'monthly' | 'quarterly' | 'weekly' | 'biweekly';
export const FREQUENCIES: readonly Frequency[] = ['monthly', 'quarterly', 'weekly', 'biweekly'];

/** 12, 4, 52, 26 (a "year" of weekly periods is 52 weeks = 364 days). */
export const PERIODS_PER_YEAR: Readonly<Record<Frequency, number>> = {
  monthly: 12,
  quarterly: 4,
  weekly: 52,
  biweekly: 26,
};

export function checkFrequency(value: unknown, field = 'frequency'): Frequency {
  if (!FREQUENCIES.includes(value as Frequency)) {
    throw mathError(C.INVALID_OPTION, field, `expected one of ${FREQUENCIES.join(', ')}`);
  }
  return value as Frequency;
}

/** `count` periods after `day` (negative: before); months clamp to the month's last day. */
export function addPeriods(day: Day, count: number, frequency: Frequency): Day {
  switch (frequency) {
    case 'monthly':
      return addMonths(day, count);
    case 'quarterly':
      return addMonths(day, 3 * count);
    case 'weekly':
      return day + 7 * count;
    case 'biweekly':
      return day + 14 * count;
  }
}

/**
 * Whether [start, end) is exactly one period: end is one period after start, or start one period
 * before end (both directions, so month-end grids such as Jan 31 -> Feb 28 -> Mar 31 count as regular).
 */
export const isRegularPeriod = (start: Day, end: Day, frequency: Frequency) =>
  addPeriods(start, 1, frequency) === end || addPeriods(end, -1, frequency) === start;

/** Due days anchor + k periods, k = from..to inclusive, each computed from the anchor (no drift). */
export function grid(anchor: Day, from: number, to: number, frequency: Frequency): Day[] {
  const out: Day[] = [];
  for (let k = from; k <= to; k++) out.push(addPeriods(anchor, k, frequency));
  return out;
}
