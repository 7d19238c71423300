import { type DayCount, checkDayCount } from './day-count';
import { type Day, parseDay, toCivil } from './dates';
import { LoanMathErrorCode as C, mathError } from './errors';
import { type Rounding, checkRounding, minor, parseRate } from './money';
import { type Frequency, addPeriods, checkFrequency, grid } from './periods';
import {
  type DeferredInterest,
  type Instalment,
  type InterestMethod,
  MAX_TERM_COUNT,
  type Plan,
  type ScheduleFee,
  type ScheduleType,
  buildSchedule,
  checkCount,
  checkDeferredInterest,
  checkDueDays,
  checkFees,
  checkGrace,
  checkInterestMethod,
  checkScheduleType,
} from './schedule';

/** The state a schedule change starts from. */
export interface RemainingLoan {
  /** Outstanding principal on fromDate, after the payment being processed (minor units, >= 1). */
  principal: number;
  /**
   * Interest on `principal` runs from this day: the day of the early repayment or of the change
   * (usually the last due date settled, or today). Must be before every instalment in `instalments`.
   */
  fromDate: string;
  annualRate: string;
  frequency: Frequency;
  scheduleType: ScheduleType;
  dayCount: DayCount;
  rounding?: Rounding;
  /** The loan's interest method (default 'periodic'): the new schedule bills by the same rule. */
  interestMethod?: InterestMethod;
  /**
   * The current schedule's instalments due after fromDate, in order (at least one). They give the due
   * dates and the numbering kept by the new schedule, and (reduce-term) the level amount to keep.
   */
  instalments: Pick<Instalment, 'number' | 'dueDate' | 'principal' | 'interest'>[];
  /**
   * Interest accrued before fromDate and not yet paid or due (e.g. from the last due date to a mid-period
   * early repayment, on the balance before it): due with the first paying new instalment. Default 0.
   */
  accruedInterest?: number;
  /** Fees of the new schedule: 'each' on every new instalment, 'first' once with the first one. */
  fees?: ScheduleFee[];
  /**
   * The day the schedule's due dates are counted from (disbursement date, or the first due date), used
   * when due dates must be added after the last one. Default: the latest remaining due date with the
   * largest day of month (keeps a month-end grid when one of the remaining dates is a month end).
   */
  anchorDate?: string;
}

export type RescheduleMode = 'reduce-term' | 'reduce-instalment';

export type ScheduleChange =
  /**
   * Early partial repayment (already subtracted from `principal`).
   * - 'reduce-instalment': same due dates, new instalment over them (annuity PMT / equal principal);
   * - 'reduce-term': keep the level amount (annuity: principal + interest; differentiated: principal),
   *   finish early; the last instalment is the remainder. `levelAmount` default: the most frequent
   *   value among the remaining instalments except the last (ties: the larger). For bullet loans both
   *   modes keep the maturity (only the interest falls).
   */
  | { kind: 'prepayment'; mode: RescheduleMode; levelAmount?: number }
  /**
   * Payment holiday: the next `periods` instalments pay nothing and every later one moves `periods`
   * periods later (the term grows by `periods`). Interest keeps accruing on the principal during the
   * holiday, is not capitalised, and is due after it (DeferredInterest, default 'first'); the
   * instalment is recomputed over the same number of paying instalments as before.
   */
  | { kind: 'holiday'; periods: number; deferredInterest?: DeferredInterest }
  /**
   * Restructuring: a new schedule from fromDate with any of a new rate, term (number of new
   * instalments), type, day count, frequency and grace. Due dates: from firstDueDate when given; else,
   * with the same frequency, the remaining due dates (cut or extended on their grid); else fromDate + k
   * new periods.
   */
  | {
      kind: 'restructure';
      annualRate?: string;
      termCount?: number;
      scheduleType?: ScheduleType;
      dayCount?: DayCount;
      frequency?: Frequency;
      firstDueDate?: string;
      graceInterestOnly?: number;
      gracePrincipal?: number;
      deferredInterest?: DeferredInterest;
    };

export const MAX_HOLIDAY_PERIODS = 120;

/**
 * Regenerates the schedule from fromDate. Returns only the new instalments (numbered from the first
 * remaining one); instalments due on or before fromDate are untouched and are the caller's.
 * Interest of the first new period runs from fromDate (a broken period when fromDate is not one
 * period before the first due date: day count interest, also for annuities) plus `accruedInterest`.
 * The new principals always add up to `principal` exactly.
 */
export function reschedule(remaining: RemainingLoan, change: ScheduleChange): Instalment[] {
  if (typeof remaining !== 'object' || remaining === null) {
    throw mathError(C.INVALID_OPTION, 'remaining', 'expected an object');
  }
  if (typeof change !== 'object' || change === null)
    throw mathError(C.INVALID_OPTION, 'change', 'expected an object');
  const base = baseOf(remaining);
  switch (change.kind) {
    case 'prepayment':
      return buildSchedule(prepayment(base, remaining, change));
    case 'holiday': {
      const periods = checkCount(change.periods, 'periods', 1, MAX_HOLIDAY_PERIODS);
      const count = base.due.length;
      return buildSchedule({
        ...base,
        due: extend(base.due, count + periods, base.frequency, remaining.anchorDate),
        payNothing: periods,
        deferred: checkDeferredInterest(change.deferredInterest),
      });
    }
    case 'restructure':
      return buildSchedule(restructure(base, remaining, change));
    default:
      throw mathError(C.INVALID_OPTION, 'change.kind', 'expected prepayment, holiday or restructure');
  }
}

function baseOf(r: RemainingLoan): Plan {
  const start = parseDay(r.fromDate, 'fromDate');
  if (!Array.isArray(r.instalments) || r.instalments.length === 0 || r.instalments.length > MAX_TERM_COUNT) {
    throw mathError(C.INVALID_TERM, 'instalments', `expected 1 to ${MAX_TERM_COUNT} remaining instalments`);
  }
  const due: Day[] = [];
  r.instalments.forEach((inst, i) => {
    const day = parseDay(inst?.dueDate, `instalments[${i}].dueDate`);
    if (day <= (i === 0 ? start : due[i - 1])) {
      throw mathError(
        C.INVALID_DATE,
        `instalments[${i}].dueDate`,
        'due dates must increase and follow fromDate',
      );
    }
    due.push(day);
  });
  const firstNumber = r.instalments[0].number;
  if (!Number.isSafeInteger(firstNumber) || firstNumber < 1) {
    throw mathError(C.INVALID_TERM, 'instalments[0].number', 'expected a positive integer');
  }
  if (r.anchorDate !== undefined) parseDay(r.anchorDate, 'anchorDate');
  return {
    principal: minor(r.principal, 'principal', 1),
    rate: parseRate(r.annualRate),
    start,
    due,
    type: checkScheduleType(r.scheduleType),
    dayCount: checkDayCount(r.dayCount),
    frequency: checkFrequency(r.frequency),
    rounding: checkRounding(r.rounding),
    interestMethod: checkInterestMethod(r.interestMethod),
    payNothing: 0,
    interestOnly: 0,
    deferred: 'first',
    carriedInterest: r.accruedInterest === undefined ? 0n : minor(r.accruedInterest, 'accruedInterest'),
    fees: checkFees(r.fees),
    firstNumber,
  };
}

function prepayment(
  base: Plan,
  r: RemainingLoan,
  change: { mode: RescheduleMode; levelAmount?: number },
): Plan {
  if (change.mode === 'reduce-instalment') return base;
  if (change.mode !== 'reduce-term') {
    throw mathError(C.INVALID_OPTION, 'change.mode', 'expected reduce-term or reduce-instalment');
  }
  if (base.type === 'bullet' || base.due.length === 1) return base;
  if (change.levelAmount !== undefined)
    return { ...base, level: minor(change.levelAmount, 'levelAmount', 1) };
  const values = r.instalments.slice(0, -1).map((i, k) => {
    const p = minor(i.principal, `instalments[${k}].principal`);
    return base.type === 'annuity' ? p + minor(i.interest, `instalments[${k}].interest`) : p;
  });
  const counts = new Map<bigint, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  let level = 0n;
  let best = 0;
  for (const [v, c] of counts) {
    if (c > best || (c === best && v > level)) [level, best] = [v, c];
  }
  return level > 0n ? { ...base, level } : base;
}

function restructure(
  base: Plan,
  r: RemainingLoan,
  change: Extract<ScheduleChange, { kind: 'restructure' }>,
): Plan {
  const frequency =
    change.frequency === undefined ? base.frequency : checkFrequency(change.frequency, 'change.frequency');
  const count =
    change.termCount === undefined
      ? base.due.length
      : checkCount(change.termCount, 'change.termCount', 1, MAX_TERM_COUNT);
  let due: Day[];
  if (change.firstDueDate !== undefined) {
    const first = parseDay(change.firstDueDate, 'change.firstDueDate');
    if (first <= base.start) throw mathError(C.INVALID_DATE, 'change.firstDueDate', 'must be after fromDate');
    due = grid(first, 0, count - 1, frequency);
  } else if (frequency === base.frequency) due = extend(base.due, count, frequency, r.anchorDate);
  else due = grid(base.start, 1, count, frequency);
  return {
    ...base,
    rate: change.annualRate === undefined ? base.rate : parseRate(change.annualRate, 'change.annualRate'),
    type:
      change.scheduleType === undefined
        ? base.type
        : checkScheduleType(change.scheduleType, 'change.scheduleType'),
    dayCount:
      change.dayCount === undefined ? base.dayCount : checkDayCount(change.dayCount, 'change.dayCount'),
    frequency,
    due: checkDueDays(due, 'change.termCount'),
    ...checkGrace(change.graceInterestOnly, change.gracePrincipal, count),
    deferred: checkDeferredInterest(change.deferredInterest, 'change.deferredInterest'),
  };
}

/** The first `total` due days: the given ones, then more on their grid. */
function extend(due: Day[], total: number, frequency: Frequency, anchorDate?: string): Day[] {
  if (total <= due.length) return due.slice(0, total);
  let anchor: Day;
  if (anchorDate !== undefined) anchor = parseDay(anchorDate, 'anchorDate');
  else {
    const dayOf = (d: Day) => toCivil(d).d;
    anchor = due.reduce((best, d) => (dayOf(d) >= dayOf(best) ? d : best), due[0]);
  }
  const last = due[due.length - 1];
  const out = due.slice();
  // Find the first grid step after the last due date (the anchor may be years back), then continue.
  let k = 1;
  while (addPeriods(anchor, k, frequency) <= last) k++;
  while (out.length < total) out.push(addPeriods(anchor, k++, frequency));
  return checkDueDays(out, 'periods');
}
