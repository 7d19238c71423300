/**
 * Pure loan money mathematics (issue 14): no Nest, no database, no imports beyond this directory.
 * Conventions, formulas and worked examples: docs/lending/loan-math.md.
 *
 * Money is integer minor units in JS numbers, guarded by Number.isSafeInteger (LoanMathError, a
 * RangeError, otherwise). Every computation runs on exact bigint fractions; each amount is rounded once,
 * with a named Rounding (default 'half-up'). Rates are decimal percent strings ("8", "19.99"). Dates are
 * `YYYY-MM-DD` calendar days (1900..2999).
 *
 * API
 * - generateSchedule(input: ScheduleInput): Instalment[]
 * - interestBetween(principal, annualRate, from, to, dayCount, rounding?, terminationDate?): { exact, rounded }
 * - dailyAccrual(principal, annualRate, date, dayCount, { periodStart?, rounding?, terminationDate? }?):
 *   { exact, rounded } (terminationDate: the loan's maturity, which 30E/360 ISDA counts apart)
 * - accrualToPost(exactCumulativeBefore, exactToday, rounding?): { exactCumulative, post }
 * - periodInterest(principal, annualRate, periodStart, dueDate, terms): { exact, rounded }: what a schedule
 *   period bills of its own (the accruals job trues its day-count accruals up to it at the due date)
 * - allocate(amount, debts, order): { parts, overpayment, rule }
 * - reschedule(remaining: RemainingLoan, change: ScheduleChange): Instalment[]
 *     change = { kind: 'prepayment', mode: 'reduce-term' | 'reduce-instalment', levelAmount? }
 *            | { kind: 'holiday', periods, deferredInterest? }
 *            | { kind: 'restructure', annualRate?, termCount?, scheduleType?, dayCount?, frequency?,
 *                firstDueDate?, graceInterestOnly?, gracePrincipal?, deferredInterest? }
 *   The caller passes the outstanding principal after the payment, the date interest restarts from,
 *   the current instalments still to come (due dates and numbering are kept), and any interest accrued
 *   but not yet due; it gets back the replacement instalments only.
 * - fullCostOfCredit(flows, basePeriod?): the Russian ПСК (353-FZ art. 6), rate to 3 decimals and amount
 * - annualPercentageRate(flows, unitPeriod?): the US APR (12 CFR 1026 Appendix J actuarial), 2 decimals
 * Helpers: yearFraction, days30360, dayCountDays, periodsPerYear, addPeriodsTo, annuityPaymentOf,
 * checkAllocationOrder, completeAllocationOrder, allocationRule, the closed sets (ROUNDINGS, DAY_COUNTS,
 * FREQUENCIES, SCHEDULE_TYPES, INTEREST_METHODS, DEBT_COMPONENTS) and LoanMathError with its
 * LoanMathErrorCode (map to envelope reasons).
 */
import {
  type DayCount,
  checkDayCount,
  days30360 as days30360Of,
  days360,
  isThirty360,
  yearFractionOf,
} from './day-count';
import { formatDay, parseDay } from './dates';
import { LoanMathErrorCode as C, mathError } from './errors';
import { terminationOf } from './interest';
import { type Rounding, checkRounding, formatExact, minor, parseRate, roundRatio, toNumber } from './money';
import { type Frequency, PERIODS_PER_YEAR, addPeriods, checkFrequency } from './periods';
import {
  type InterestMethod,
  MAX_TERM_COUNT,
  type ScheduleType,
  annuityPayment,
  checkCount,
  checkInterestMethod,
  checkScheduleType,
  ownInterest,
} from './schedule';

export {
  type Allocation,
  type DebtComponent,
  DEBT_COMPONENTS,
  allocate,
  allocationRule,
  checkAllocationOrder,
  completeAllocationOrder,
} from './allocation';
export {
  type AnnualPercentageRate,
  type BasePeriod,
  type CostFlow,
  type FullCostOfCredit,
  type UnitPeriod,
  annualPercentageRate,
  fullCostOfCredit,
} from './cost-of-credit';
export { type DayCount, DAY_COUNTS } from './day-count';
export { LoanMathError, LoanMathErrorCode } from './errors';
export { type InterestAmount, accrualToPost, dailyAccrual, interestBetween } from './interest';
export { DEFAULT_ROUNDING, EXACT_PLACES, MAX_SCHEDULE_TOTAL, ROUNDINGS, type Rounding } from './money';
export { FREQUENCIES, type Frequency } from './periods';
export {
  MAX_HOLIDAY_PERIODS,
  type RemainingLoan,
  type RescheduleMode,
  type ScheduleChange,
  reschedule,
} from './reschedule';
export {
  type DeferredInterest,
  type Instalment,
  INTEREST_METHODS,
  type InterestMethod,
  MAX_TERM_COUNT,
  SCHEDULE_TYPES,
  type ScheduleFee,
  type ScheduleInput,
  type ScheduleType,
  generateSchedule,
} from './schedule';

/** Periods per year of a frequency: monthly 12, quarterly 4, weekly 52, biweekly 26. */
export const periodsPerYear = (frequency: Frequency): number => PERIODS_PER_YEAR[checkFrequency(frequency)];

/**
 * The year fraction between two days under a day count, as an exact decimal string (12 places).
 * `terminationDate`: the loan's maturity (30E/360 ISDA only).
 */
export function yearFraction(from: string, to: string, dayCount: DayCount, terminationDate?: string): string {
  const a = parseDay(from, 'from');
  const b = parseDay(to, 'to');
  if (b < a) throw mathError(C.INVALID_DATE, 'to', 'must not be before from');
  return formatExact(yearFractionOf(a, b, checkDayCount(dayCount), terminationOf(terminationDate)));
}

/** The 30/360 (ISDA Bond Basis) day count between two days. */
export const days30360 = (from: string, to: string): number =>
  days30360Of(parseDay(from, 'from'), parseDay(to, 'to'));

/**
 * The days a day count counts between two days: the adjusted 30-day count of the 30/360 family, the
 * actual days of the ACT ones. `terminationDate`: the loan's maturity (30E/360 ISDA only).
 */
export function dayCountDays(from: string, to: string, dayCount: DayCount, terminationDate?: string): number {
  const a = parseDay(from, 'from');
  const b = parseDay(to, 'to');
  if (b < a) throw mathError(C.INVALID_DATE, 'to', 'must not be before from');
  const dc = checkDayCount(dayCount);
  return isThirty360(dc) ? days360(a, b, dc, terminationOf(terminationDate)) : b - a;
}

/** `count` periods after a day (negative: before), months clamped to the month's end. */
export const addPeriodsTo = (date: string, count: number, frequency: Frequency): string =>
  formatDay(addPeriods(parseDay(date, 'date'), count, checkFrequency(frequency)));

/** The level annuity payment (Excel PMT, rounded once) for `termCount` periods. */
export function annuityPaymentOf(
  principal: number,
  annualRate: string,
  termCount: number,
  frequency: Frequency,
  rounding?: Rounding,
): number {
  const payment = annuityPayment(
    minor(principal, 'principal'),
    parseRate(annualRate),
    checkCount(termCount, 'termCount', 1, MAX_TERM_COUNT),
    PERIODS_PER_YEAR[checkFrequency(frequency)],
    checkRounding(rounding),
  );
  return toNumber(payment, 'payment');
}

/**
 * The interest one schedule period bills of its own, before deferred interest and fees: an annuity's
 * regular period (exactly one period long) under the 'periodic' interest method `principal * rate /
 * periods-per-year`, every other period `principal * rate * yearFraction(periodStart, dueDate, dayCount)`
 * (what generateSchedule and reschedule put in the instalment). `principal` is the balance outstanding
 * during the period; `terminationDate` the schedule's last due date (30E/360 ISDA counts it apart).
 */
export function periodInterest(
  principal: number,
  annualRate: string,
  periodStart: string,
  dueDate: string,
  terms: {
    scheduleType: ScheduleType;
    dayCount: DayCount;
    frequency: Frequency;
    rounding?: Rounding;
    interestMethod?: InterestMethod;
    terminationDate?: string;
  },
): { exact: string; rounded: number } {
  const p = minor(principal, 'principal');
  const rate = parseRate(annualRate);
  const a = parseDay(periodStart, 'periodStart');
  const b = parseDay(dueDate, 'dueDate');
  if (b <= a) throw mathError(C.INVALID_DATE, 'dueDate', 'must be after periodStart');
  const x = ownInterest(p, rate, a, b, {
    type: checkScheduleType(terms.scheduleType),
    dayCount: checkDayCount(terms.dayCount),
    frequency: checkFrequency(terms.frequency),
    interestMethod: checkInterestMethod(terms.interestMethod),
    termination: terminationOf(terms.terminationDate),
  });
  return {
    exact: formatExact(x),
    rounded: toNumber(roundRatio(x, checkRounding(terms.rounding)), 'interest'),
  };
}
