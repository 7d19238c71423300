import { type DayCount, checkDayCount, yearFractionOf } from './day-count';
import { type Day, formatDay, parseDay, toCivil } from './dates';
import { LoanMathErrorCode as C, mathError } from './errors';
import {
  type Ratio,
  type Rounding,
  checkRounding,
  minor,
  mul,
  parseRate,
  roundDiv,
  roundRatio,
  toNumber,
  checkScheduleTotal,
} from './money';
import { type Frequency, PERIODS_PER_YEAR, checkFrequency, grid, isRegularPeriod } from './periods';

export type ScheduleType = 'annuity' | 'differentiated' | 'bullet';
export const SCHEDULE_TYPES: readonly ScheduleType[] = ['annuity', 'differentiated', 'bullet'];

/**
 * How an annuity bills the interest of a regular period (differentiated and bullet schedules, and broken
 * periods, always bill by the day count):
 * - 'periodic': balance * rate / periods-per-year, whatever the days (default);
 * - 'day-count': balance * rate * yearFraction(start, end, dayCount), the days of the period under the
 *   day count; the instalment stays PMT (from rate / periods-per-year), its principal is PMT minus that
 *   interest, and the last instalment takes the remaining balance.
 */
export type InterestMethod = 'periodic' | 'day-count';
export const INTEREST_METHODS: readonly InterestMethod[] = ['periodic', 'day-count'];

/**
 * Where the interest of the "pay nothing" periods (gracePrincipal, payment holiday) goes. It is never
 * capitalised (the principal repaid always equals the principal lent); it accrues as simple interest on
 * the outstanding principal, each period's rounded once (as any period's interest), and their sum is due
 * - 'first': with the first instalment after those periods (default);
 * - 'spread': in equal parts with every instalment after them (the last absorbs the rounding).
 */
export type DeferredInterest = 'first' | 'spread';

export interface ScheduleFee {
  name: string;
  /** Minor units, >= 0. */
  amount: number;
  /** 'first': once, with instalment 1; 'each': with every instalment. */
  dueWith: 'first' | 'each';
}

export interface ScheduleInput {
  /** Minor units, >= 1. */
  principal: number;
  /** Nominal annual rate in percent, decimal string: "8", "19.99". */
  annualRate: string;
  /** Number of instalments including grace periods, 1..MAX_TERM_COUNT. */
  termCount: number;
  frequency: Frequency;
  scheduleType: ScheduleType;
  dayCount: DayCount;
  disbursementDate: string;
  /** Default: one period after disbursement. Later due dates follow it on its own grid. */
  firstDueDate?: string;
  /** The first N instalments (after any gracePrincipal ones) pay interest (and fees) only. */
  graceInterestOnly?: number;
  /**
   * The first N instalments pay nothing. Their interest is NOT capitalised: it accrues on the
   * outstanding principal and is due after the grace (see DeferredInterest); their fees move to the
   * first paying instalment.
   */
  gracePrincipal?: number;
  /** Default 'half-up'. */
  rounding?: Rounding;
  fees?: ScheduleFee[];
  /** Default 'first'. */
  deferredInterest?: DeferredInterest;
  /** Default 'periodic'. */
  interestMethod?: InterestMethod;
}

export interface Instalment {
  /** 1-based (a regenerated schedule continues the numbering of the one it replaces). */
  number: number;
  dueDate: string;
  /** The previous due date, or the disbursement / reschedule date for the first one. */
  periodStart: string;
  principal: number;
  interest: number;
  fees: number;
  /** principal + interest + fees. */
  total: number;
  /** Outstanding principal after this instalment is paid. */
  balanceAfter: number;
  /** Actual calendar days from periodStart to dueDate (whatever the day count). */
  days: number;
  /** The fees of `fees`, by name (a fee moved out of a grace period appears with its own name). */
  feeItems?: { name: string; amount: number }[];
}

export const MAX_TERM_COUNT = 2000;
const MAX_FEES = 50;

export function checkScheduleType(value: unknown, field = 'scheduleType'): ScheduleType {
  if (!SCHEDULE_TYPES.includes(value as ScheduleType)) {
    throw mathError(C.INVALID_OPTION, field, `expected one of ${SCHEDULE_TYPES.join(', ')}`);
  }
  return value as ScheduleType;
}

export function checkInterestMethod(value: unknown, field = 'interestMethod'): InterestMethod {
  if (value === undefined) return 'periodic';
  if (!INTEREST_METHODS.includes(value as InterestMethod)) {
    throw mathError(C.INVALID_OPTION, field, `expected one of ${INTEREST_METHODS.join(', ')}`);
  }
  return value as InterestMethod;
}

export function checkDeferredInterest(value: unknown, field = 'deferredInterest'): DeferredInterest {
  if (value === undefined) return 'first';
  if (value !== 'first' && value !== 'spread') {
    throw mathError(C.INVALID_OPTION, field, 'expected first or spread');
  }
  return value;
}

export function checkCount(value: unknown, field: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw mathError(C.INVALID_TERM, field, `expected an integer from ${min} to ${max}`);
  }
  return value;
}

export function checkFees(value: unknown, field = 'fees'): ScheduleFee[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.length > MAX_FEES) {
    throw mathError(C.INVALID_OPTION, field, `expected a list of at most ${MAX_FEES} fees`);
  }
  return value.map((f: Partial<ScheduleFee> | null, i) => {
    const at = `${field}[${i}]`;
    if (typeof f !== 'object' || f === null) throw mathError(C.INVALID_OPTION, at, 'expected a fee');
    if (typeof f.name !== 'string' || f.name.length === 0 || f.name.length > 100) {
      throw mathError(C.INVALID_OPTION, `${at}.name`, 'expected 1 to 100 characters');
    }
    if (f.dueWith !== 'first' && f.dueWith !== 'each') {
      throw mathError(C.INVALID_OPTION, `${at}.dueWith`, 'expected first or each');
    }
    minor(f.amount, `${at}.amount`);
    return { name: f.name, amount: f.amount as number, dueWith: f.dueWith };
  });
}

/** Grace counts: non-negative integers leaving at least one amortising period. */
export function checkGrace(interestOnly: unknown, payNothing: unknown, termCount: number) {
  const io = interestOnly === undefined ? 0 : checkCount(interestOnly, 'graceInterestOnly', 0, termCount - 1);
  const pn = payNothing === undefined ? 0 : checkCount(payNothing, 'gracePrincipal', 0, termCount - 1);
  if (io + pn > termCount - 1) {
    throw mathError(C.INVALID_TERM, 'graceInterestOnly', 'grace periods must leave at least one repayment');
  }
  return { interestOnly: io, payNothing: pn };
}

/** Everything the generator needs, validated. Shared by generateSchedule and reschedule. */
export interface Plan {
  principal: bigint;
  rate: Ratio;
  /** Start of the first period (disbursement, or the reschedule date). */
  start: Day;
  /** Due days, increasing, all after `start`: the number of instalments (the most, with `level`). */
  due: Day[];
  type: ScheduleType;
  dayCount: DayCount;
  frequency: Frequency;
  rounding: Rounding;
  interestMethod: InterestMethod;
  payNothing: number;
  interestOnly: number;
  deferred: DeferredInterest;
  /** Whole minor units of interest accrued before `start`, due with the first paying instalment. */
  carriedInterest: bigint;
  fees: ScheduleFee[];
  firstNumber: number;
  /**
   * Reduce-term mode: keep this level amount (annuity: principal + interest; differentiated: principal)
   * and stop as soon as the principal is repaid; `due` is then the longest the schedule may run.
   */
  level?: bigint;
}

/** The terms that decide a period's own interest. */
export interface InterestTerms {
  type: ScheduleType;
  dayCount: DayCount;
  frequency: Frequency;
  interestMethod: InterestMethod;
  /** The schedule's last due date (the loan's maturity): the termination date of 30E/360 ISDA. */
  termination?: Day;
}

/**
 * The interest a schedule period bills of its own (before deferred interest and fees), exact: for an
 * annuity's regular period under the 'periodic' method `balance * rate / periods-per-year`, otherwise
 * (the 'day-count' method, broken periods, and every period of differentiated and bullet schedules)
 * `balance * rate * yearFraction(start, end, dayCount)`.
 */
export function ownInterest(balance: bigint, rate: Ratio, start: Day, end: Day, t: InterestTerms): Ratio {
  const B: Ratio = { n: balance, d: 1n };
  return t.type === 'annuity' && t.interestMethod === 'periodic' && isRegularPeriod(start, end, t.frequency)
    ? mul(B, { n: rate.n, d: rate.d * BigInt(PERIODS_PER_YEAR[t.frequency]) })
    : mul(B, mul(rate, yearFractionOf(start, end, t.dayCount, t.termination)));
}

/** `total` in `count` equal rounded parts; the last part (total - part*(count-1)) absorbs the rest. */
export function equalPart(total: bigint, count: number, rounding: Rounding): bigint {
  const n = BigInt(count);
  const part = roundDiv(total, n, rounding);
  return part * (n - 1n) > total ? total / n : part;
}

/** Annuity payment P*i*(1+i)^m / ((1+i)^m - 1) with i = rate/ppy = (a-b)/b, rounded once. */
export function annuityPayment(
  principal: bigint,
  rate: Ratio,
  m: number,
  ppy: number,
  rounding: Rounding,
): bigint {
  if (rate.n === 0n) return equalPart(principal, m, rounding);
  const b = rate.d * BigInt(ppy);
  const a = b + rate.n;
  const am = a ** BigInt(m);
  const bm = b ** BigInt(m);
  return roundDiv(principal * (a - b) * am, b * (am - bm), rounding);
}

const min = (x: bigint, y: bigint) => (x < y ? x : y);
const max = (x: bigint, y: bigint) => (x > y ? x : y);

/**
 * The generator. Period k runs from due[k-1] (or `start`) to due[k]. Its own interest, exact:
 * - annuity, 'periodic' method: B * rate/ppy when the period is regular (exactly one period long),
 *   otherwise B * rate * yearFraction(start, end, dayCount) (a broken first period);
 * - annuity, 'day-count' method, and differentiated and bullet: B * rate * yearFraction(start, end,
 *   dayCount), always;
 * where B is the principal outstanding during the period. Each instalment's interest is its own
 * interest rounded once, plus its share of the deferred interest. Principal per instalment:
 * - annuity, 'periodic': PMT - round(B * rate/ppy) (the regular interest, so a broken first period
 *   changes only instalment 1's interest, not the amortisation), clamped to [0, B];
 * - annuity, 'day-count': PMT - round(own interest) (principal + interest stays PMT), clamped to [0, B];
 * - differentiated: the equal part round(P/m) (floor when rounding up would overshoot), at most B;
 * - bullet: 0;
 * the last instalment always takes the whole remaining B (absorbing every rounding).
 * The termination date of 30E/360 ISDA is the last due date; with `level` (reduce-term) it is the due
 * date of the instalment that repays the balance, whose interest is then counted to it as such.
 */
export function buildSchedule(plan: Plan): Instalment[] {
  const { type, rounding, frequency, payNothing, interestOnly } = plan;
  const n = plan.due.length;
  const terms: InterestTerms = {
    type,
    dayCount: plan.dayCount,
    frequency,
    interestMethod: plan.interestMethod,
    termination: plan.due[n - 1],
  };
  const ppy = PERIODS_PER_YEAR[frequency];
  const periodic: Ratio = { n: plan.rate.n, d: plan.rate.d * BigInt(ppy) };
  const amortising = n - payNothing - interestOnly;
  const payment =
    plan.level ??
    (type === 'annuity'
      ? annuityPayment(plan.principal, plan.rate, amortising, ppy, rounding)
      : equalPart(plan.principal, amortising, rounding));
  const deferredMode = plan.level === undefined ? plan.deferred : 'first';

  const out: Instalment[] = [];
  let balance = plan.principal;
  // Each pay-nothing period's interest is rounded once, as every period's is, and their sum deferred:
  // exactly what the daily accruals book for those periods.
  let deferredRounded = 0n;
  let deferredTotal = 0n;
  let deferredFees: { name: string; amount: number }[] = [];

  for (let k = 0; k < n; k++) {
    const start = k === 0 ? plan.start : plan.due[k - 1];
    const end = plan.due[k];
    const B: Ratio = { n: balance, d: 1n };
    let own = ownInterest(balance, plan.rate, start, end, terms);
    const feeItems = plan.fees
      .filter((f) => f.dueWith === 'each' || k === 0)
      .map((f) => ({ name: f.name, amount: f.amount }));

    if (k < payNothing) {
      deferredRounded += roundRatio(own, rounding);
      deferredFees = deferredFees.concat(feeItems);
      out.push(row(plan.firstNumber + k, start, end, 0n, 0n, [], balance));
      continue;
    }
    if (k === payNothing) deferredTotal = deferredRounded + plan.carriedInterest;

    const j = k - payNothing;
    const deferredPiece = shareOf(deferredTotal, deferredMode, j, n - payNothing, rounding);

    let principal = 0n;
    if (k === n - 1) principal = balance;
    else if (k >= payNothing + interestOnly) {
      if (type === 'annuity') {
        const regular =
          plan.interestMethod === 'periodic'
            ? roundRatio(mul(B, periodic), rounding)
            : roundRatio(own, rounding);
        principal = min(max(payment - regular, 0n), balance);
      } else if (type === 'differentiated') principal = min(payment, balance);
    }
    balance -= principal;
    // Reduce-term: this instalment repays the balance, so its due date is the loan's maturity. Counted to
    // the termination date the interest can only fall (30E/360 ISDA keeps Feb 28/29 instead of 30), so
    // the principal (already the whole balance) stays what it is.
    if (plan.level !== undefined && balance === 0n && k < n - 1)
      own = ownInterest(B.n, plan.rate, start, end, { ...terms, termination: end });
    const interest = roundRatio(own, rounding) + deferredPiece;
    const items = j === 0 ? deferredFees.concat(feeItems) : feeItems;
    out.push(row(plan.firstNumber + k, start, end, principal, interest, items, balance));
    if (plan.level !== undefined && balance === 0n) break;
  }
  return checkScheduleTotal(out);
}

/** Paying instalment j's share (of `paying`) of the deferred interest. */
function shareOf(
  total: bigint,
  mode: DeferredInterest,
  j: number,
  paying: number,
  rounding: Rounding,
): bigint {
  if (mode === 'first') return j === 0 ? total : 0n;
  const part = equalPart(total, paying, rounding);
  return j === paying - 1 ? total - part * BigInt(paying - 1) : part;
}

function row(
  number: number,
  start: Day,
  end: Day,
  principal: bigint,
  interest: bigint,
  feeItems: { name: string; amount: number }[],
  balance: bigint,
): Instalment {
  const fees = feeItems.reduce((s, f) => s + BigInt(f.amount), 0n);
  return {
    number,
    dueDate: formatDay(end),
    periodStart: formatDay(start),
    principal: toNumber(principal, 'principal'),
    interest: toNumber(interest, 'interest'),
    fees: toNumber(fees, 'fees'),
    total: toNumber(principal + interest + fees, 'total'),
    balanceAfter: toNumber(balance, 'balanceAfter'),
    days: end - start,
    feeItems,
  };
}

/** Refuses due days past the supported calendar (2999-12-31). */
export function checkDueDays(due: Day[], field: string): Day[] {
  if (due.length > 0 && toCivil(due[due.length - 1]).y > 2999) {
    throw mathError(C.INVALID_TERM, field, 'the schedule would end after 2999');
  }
  return due;
}

/**
 * Generates the whole schedule of a new loan. Due dates: firstDueDate + (k-1) periods when given,
 * otherwise disbursementDate + k periods (months clamp to the month's end, counted from the anchor so
 * Jan 31 gives Feb 28, Mar 31, Apr 30, ...). Order of periods: gracePrincipal ones (pay nothing), then
 * graceInterestOnly ones, then termCount - both amortising ones.
 */
export function generateSchedule(input: ScheduleInput): Instalment[] {
  if (typeof input !== 'object' || input === null)
    throw mathError(C.INVALID_OPTION, 'input', 'expected an object');
  const principal = minor(input.principal, 'principal', 1);
  const rate = parseRate(input.annualRate);
  const termCount = checkCount(input.termCount, 'termCount', 1, MAX_TERM_COUNT);
  const frequency = checkFrequency(input.frequency);
  const type = checkScheduleType(input.scheduleType);
  const dayCount = checkDayCount(input.dayCount);
  const rounding = checkRounding(input.rounding);
  const start = parseDay(input.disbursementDate, 'disbursementDate');
  const grace = checkGrace(input.graceInterestOnly, input.gracePrincipal, termCount);
  const fees = checkFees(input.fees);
  const deferred = checkDeferredInterest(input.deferredInterest);
  const interestMethod = checkInterestMethod(input.interestMethod);
  let due: Day[];
  if (input.firstDueDate === undefined) due = grid(start, 1, termCount, frequency);
  else {
    const first = parseDay(input.firstDueDate, 'firstDueDate');
    if (first <= start) throw mathError(C.INVALID_DATE, 'firstDueDate', 'must be after disbursementDate');
    due = grid(first, 0, termCount - 1, frequency);
  }
  return buildSchedule({
    principal,
    rate,
    start,
    due: checkDueDays(due, 'termCount'),
    type,
    dayCount,
    frequency,
    rounding,
    interestMethod,
    ...grace,
    deferred,
    carriedInterest: 0n,
    fees,
    firstNumber: 1,
  });
}
