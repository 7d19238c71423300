import { type DayCount, checkDayCount, yearFractionOf } from './day-count';
import { parseDay } from './dates';
import { LoanMathErrorCode as C, mathError } from './errors';
import {
  EXACT_PLACES,
  type Ratio,
  type Rounding,
  add,
  checkRounding,
  formatExact,
  minor,
  mul,
  parseExact,
  parseRate,
  roundRatio,
  sub,
  toNumber,
} from './money';

/**
 * Interest as an exact decimal string of minor units (EXACT_PLACES = 12 places, half-even at the 12th
 * place: an error below 5e-13 of a minor unit) and the same rounded once to a whole minor unit.
 */
export interface InterestAmount {
  exact: string;
  rounded: number;
}

/** principal * rate * yearFraction(from, to), exact (`termination`: see yearFractionOf). */
export function simpleInterest(
  principal: bigint,
  rate: Ratio,
  from: number,
  to: number,
  dc: DayCount,
  termination?: number,
): Ratio {
  return mul({ n: principal, d: 1n }, mul(rate, yearFractionOf(from, to, dc, termination)));
}

/** An optional termination date (30E/360 ISDA), parsed. */
export const terminationOf = (value: string | undefined, field = 'terminationDate') =>
  value === undefined ? undefined : parseDay(value, field);

const amount = (x: Ratio, rounding: Rounding, field: string): InterestAmount => ({
  exact: formatExact(x),
  rounded: toNumber(roundRatio(x, rounding), field),
});

/**
 * Simple (non-compounding) interest on a constant principal from `from` (inclusive) to `to` (exclusive):
 * principal * annualRate/100 * yearFraction(from, to, dayCount). `from` may equal `to` (zero).
 * `terminationDate` (30E/360 ISDA only): the loan's maturity, whose February day number is kept.
 */
export function interestBetween(
  principal: number,
  annualRate: string,
  from: string,
  to: string,
  dayCount: DayCount,
  rounding?: Rounding,
  terminationDate?: string,
): InterestAmount {
  const p = minor(principal, 'principal');
  const rate = parseRate(annualRate);
  const a = parseDay(from, 'from');
  const b = parseDay(to, 'to');
  const dc = checkDayCount(dayCount);
  const mode = checkRounding(rounding);
  const termination = terminationOf(terminationDate);
  if (b < a) throw mathError(C.INVALID_DATE, 'to', 'must not be before from');
  return amount(simpleInterest(p, rate, a, b, dc, termination), mode, 'interest');
}

/**
 * The interest of one day, `date` to the next day. Without `periodStart` it is interestBetween(date,
 * date + 1); summing those keeps an error below 5e-13 minor units per day. With `periodStart` (<= date,
 * any fixed day since which the principal has not changed, usually the period start) it is the growth
 * of the cumulative interest, interestBetween(periodStart, date + 1).exact - interestBetween(periodStart,
 * date).exact, so the days' exact amounts add up to the period's exact interest digit for digit, even
 * under the 30-day conventions, which are not additive day by day (30/360: Feb 28 -> Mar 1 counts 3
 * days, the 30th -> 31st counts 0, and a period from Feb 28 to Mar 31 counts 33 days while its single
 * days count 32). `terminationDate` (30E/360 ISDA): the loan's maturity, so the last day of a period
 * ending on it adds up to that period's interest too.
 */
export function dailyAccrual(
  principal: number,
  annualRate: string,
  date: string,
  dayCount: DayCount,
  options: { periodStart?: string; rounding?: Rounding; terminationDate?: string } = {},
): InterestAmount {
  const p = minor(principal, 'principal');
  const rate = parseRate(annualRate);
  const day = parseDay(date, 'date');
  const dc = checkDayCount(dayCount);
  const mode = checkRounding(options.rounding);
  const termination = terminationOf(options.terminationDate);
  let x: Ratio;
  if (options.periodStart === undefined) {
    x = simpleInterest(p, rate, day, day + 1, dc, termination);
  } else {
    const start = parseDay(options.periodStart, 'periodStart');
    if (start > day) throw mathError(C.INVALID_DATE, 'periodStart', 'must not be after date');
    // Difference of the two cumulative amounts as written (12 places), so the days' exact strings add
    // up to interestBetween(periodStart, end).exact digit for digit, with no drift at the 12th place.
    const upTo = (end: number) =>
      parseExact(formatExact(simpleInterest(p, rate, start, end, dc, termination)), 'exact');
    x = sub(upTo(day + 1), upTo(day));
  }
  return amount(x, mode, 'interest');
}

/**
 * For a daily accrual job that keeps the exact cumulative amount and posts whole minor units:
 * exactCumulative = before + today (exact decimal addition, at least 12 places);
 * post = round(exactCumulative) - round(before). The posts therefore always add up to the rounded
 * cumulative amount: daily rounding never drifts. Negative `exactToday` (a correction) is allowed.
 */
export function accrualToPost(
  exactCumulativeBefore: string,
  exactToday: string,
  rounding?: Rounding,
): { exactCumulative: string; post: number } {
  const before = parseExact(exactCumulativeBefore, 'exactCumulativeBefore');
  const today = parseExact(exactToday, 'exactToday');
  const mode = checkRounding(rounding);
  const after = add(before, today);
  const places = Math.max(EXACT_PLACES, decimalPlaces(exactCumulativeBefore), decimalPlaces(exactToday));
  return {
    exactCumulative: formatExact(after, places),
    post: toNumber(roundRatio(after, mode) - roundRatio(before, mode), 'post'),
  };
}

const decimalPlaces = (s: string) => (s.includes('.') ? s.length - s.indexOf('.') - 1 : 0);
