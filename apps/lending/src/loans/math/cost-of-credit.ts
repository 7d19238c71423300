import { type Day, addMonths, daysInMonth, fromCivil, parseDay, toCivil } from './dates';
import { LoanMathErrorCode as C, mathError } from './errors';

/**
 * The full cost of credit of a loan's cash flows, two ways (docs/lending/loans.md, "Full cost of credit"):
 * - the Russian full cost of consumer credit (ПСК), Federal Law 353-FZ "On consumer credit (loans)",
 *   art. 6 parts 2 and 2.1: PSK = i x ЧБП x 100, to three decimals, i the least positive root of
 *   sum_k DP_k / ((1 + e_k i)(1 + i)^q_k) = 0, q_k whole base periods from the disbursement to flow k
 *   and e_k the rest as a fraction of a base period; ЧБП the base periods in a 365-day year;
 * - the US annual percentage rate, 12 CFR 1026 (Regulation Z) Appendix J, actuarial method: the same
 *   equation with t (whole unit-periods) and f (the fraction of the first, odd period) measured back
 *   from each flow's date, months counted as 30 days for the fraction, and APR = unit-period rate x
 *   unit-periods per year, to two decimals.
 *
 * Money stays exact: the flows are integer minor units and never become floats. The rate is rounded
 * correctly, not approximately: the published value R is the one whose rounding interval
 * [R - half a unit, R + half a unit) holds the root, decided by the sign of the equation at the two
 * interval ends, each evaluated in 256-bit binary fixed point with a proven error bound (a sign that
 * the bound cannot decide counts as zero: the root is on the boundary to within 2^-200 of a period rate,
 * and rounds half up). A double-precision bisection only picks which interval to check first.
 */

/** One cash flow, seen from the lender: negative out to the borrower (the loan), positive back. */
export interface CostFlow {
  /** `YYYY-MM-DD` */
  date: string;
  /** Minor units, a safe integer. */
  amount: number;
}

/** The base period of 353-FZ art. 6 part 2.1: a number of calendar months, or of days. */
export type BasePeriod = { unit: 'month'; count: number } | { unit: 'day'; count: number };

/**
 * The unit-period of Appendix J (b)(4): months (1..11), a semimonth, days (a day, a week, a multiple
 * of a week), a year, or the whole term of a single-advance, single-payment transaction shorter than a
 * year and not a whole number of months ((b)(5)(vii): 365 / its days unit-periods a year).
 */
export type UnitPeriod =
  | { unit: 'month'; count: number }
  | { unit: 'semimonth' }
  | { unit: 'day'; count: number }
  | { unit: 'year' }
  | { unit: 'term'; days: number };

export interface FullCostOfCredit {
  /** Percent a year, three decimals ("21.351"). */
  rate: string;
  /** What the borrower pays beyond the principal: all payments minus all advances, minor units. */
  amount: number;
  basePeriod: BasePeriod;
  /** ЧБП, exact ("12", "52.142857142857"): 12 / months, or 365 / days. */
  periodsPerYear: string;
}

export interface AnnualPercentageRate {
  /** Percent, two decimals ("12.00"). */
  rate: string;
  unitPeriod: UnitPeriod;
  /** w of Appendix J, exact ("12", "1.431372549020"). */
  unitPeriodsPerYear: string;
  /** §1026.22(a)(2)/(3): a regular transaction's disclosed APR is accurate within 1/8 point, else 1/4. */
  regular: boolean;
  tolerance: '0.125' | '0.25';
}

/** A flow placed in time: `whole` periods plus `frac` = n/d of one (0 <= frac < 1). */
export interface TimedFlow {
  amount: bigint;
  whole: number;
  frac: { n: bigint; d: bigint };
}

// ---- the solver -----------------------------------------------------------------------------------

const BITS = 256n;
const ONE = 1n << BITS;
const abs = (x: bigint) => (x < 0n ? -x : x);

/**
 * The sign of sum a_k / ((1 + f_k i)(1 + i)^w_k) at the period rate i = rn/rd >= 0, certified: the sum
 * is computed times 2^256 with every step rounded down, and its error is at most
 * sum |a_k| (2 w_k + 2) units of the last place (each power of v = 1/(1 + i) adds at most 2, the
 * fraction's factor 1 more); a sum inside that bound is reported as 0.
 */
export function npvSign(flows: readonly TimedFlow[], rn: bigint, rd: bigint): -1 | 0 | 1 {
  const v = (ONE * rd) / (rd + rn);
  let p = ONE;
  let at = 0;
  let sum = 0n;
  let bound = 0n;
  for (const t of flows) {
    while (at < t.whole) {
      p = (p * v) >> BITS;
      at++;
    }
    const g = t.frac.n === 0n ? p : (p * t.frac.d * rd) / (t.frac.d * rd + t.frac.n * rn);
    sum += t.amount * g;
    bound += abs(t.amount) * BigInt(2 * at + 2);
  }
  return sum > bound ? 1 : sum < -bound ? -1 : 0;
}

/** The same sum in double precision (flows sorted by `whole`), only to guess where the root is. */
function npvApprox(flows: readonly { amount: number; whole: number; frac: number }[], i: number): number {
  let s = 0;
  let at = 0;
  let power = 1;
  for (const t of flows) {
    if (t.whole !== at) {
      power *= (1 + i) ** (t.whole - at);
      at = t.whole;
    }
    s += t.amount / ((1 + t.frac * i) * power);
  }
  return s;
}

/** Highest period rate searched: 1000% a period. A loan dearer than that has no published rate. */
const MAX_PERIOD_RATE = 10n;

/**
 * The annual rate in percent, i x perYear x 100, rounded half up to `places` decimals, where i is the
 * root of the equation over `flows` (sorted by `whole`; advances negative and before every payment, so
 * the sum falls as the rate rises and the root is unique). Null when the payments do not repay the
 * advances (no positive root) or the rate is beyond MAX_PERIOD_RATE.
 */
export function roundedAnnualRate(
  flows: readonly TimedFlow[],
  perYear: { n: bigint; d: bigint },
  places: number,
): string | null {
  const scale = 10n ** BigInt(places);
  const sorted = [...flows].sort((a, b) => a.whole - b.whole);
  const zero = npvSign(sorted, 0n, 1n);
  if (zero < 0) return null;
  // Boundary j between the published values j - 1 and j (units of 10^-places percent): (j - 1/2) units,
  // as a period rate (2j - 1) perYear.d / (2 scale 100 perYear.n).
  const den = 2n * scale * 100n * perYear.n;
  const at = (j: bigint) => (j <= 0n ? 1 : npvSign(sorted, (2n * j - 1n) * perYear.d, den));
  const top = (MAX_PERIOD_RATE * 100n * scale * perYear.n) / perYear.d;
  if (at(top) >= 0) return null;
  // Invariant: at(lo) >= 0 (the value is at least lo units), at(hi) < 0 (it is below hi).
  let lo = 0n;
  let hi = top;
  const guess = estimate(sorted, Number(perYear.n) / Number(perYear.d), places);
  if (guess !== null) {
    const a = guess - 2n > 0n ? guess - 2n : 0n;
    const b = guess + 3n < top ? guess + 3n : top;
    if (at(a) >= 0 && at(b) < 0) [lo, hi] = [a, b];
  }
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n;
    if (at(mid) >= 0) lo = mid;
    else hi = mid;
  }
  return formatUnits(lo, places);
}

function estimate(flows: readonly TimedFlow[], perYear: number, places: number): bigint | null {
  const approx = flows.map((t) => ({
    amount: Number(t.amount),
    whole: t.whole,
    frac: Number(t.frac.n) / Number(t.frac.d),
  }));
  let lo = 0;
  let hi = Number(MAX_PERIOD_RATE);
  // 60 halvings of [0, 10] leave ~1e-17: far below a rounding unit of the annual rate.
  for (let k = 0; k < 60; k++) {
    const mid = (lo + hi) / 2;
    if (npvApprox(approx, mid) > 0) lo = mid;
    else hi = mid;
  }
  const units = Math.round(((lo + hi) / 2) * perYear * 100 * 10 ** places);
  return Number.isSafeInteger(units) ? BigInt(units) : null;
}

function formatUnits(units: bigint, places: number): string {
  const s = units.toString().padStart(places + 1, '0');
  return places === 0 ? s : `${s.slice(0, s.length - places)}.${s.slice(s.length - places)}`;
}

/** An exact ratio n/d as a decimal with at most 12 places, trailing zeros dropped ("12", "52.142857142857"). */
function ratioText(n: bigint, d: bigint): string {
  const x = (n * 10n ** 12n * 2n + d) / (2n * d);
  return formatUnits(x, 12).replace(/\.?0+$/, '');
}

// ---- placing the flows in time ----------------------------------------------------------------------

interface Placed {
  day: Day;
  amount: bigint;
}

function place(flows: readonly CostFlow[]): Placed[] {
  if (!Array.isArray(flows) || flows.length < 2) {
    throw mathError(C.INVALID_OPTION, 'flows', 'expected an advance and at least one payment');
  }
  const out = flows.map((f, k) => {
    const amount = f.amount;
    if (typeof amount !== 'number' || !Number.isSafeInteger(amount)) {
      throw mathError(C.INVALID_AMOUNT, `flows[${k}].amount`, 'not a safe integer of minor units');
    }
    return { day: parseDay(f.date, `flows[${k}].date`), amount: BigInt(amount) };
  });
  const lastAdvance = Math.max(...out.filter((f) => f.amount < 0n).map((f) => f.day));
  const firstPayment = Math.min(...out.filter((f) => f.amount > 0n).map((f) => f.day));
  if (!Number.isFinite(lastAdvance) || !Number.isFinite(firstPayment) || firstPayment < lastAdvance) {
    throw mathError(C.INVALID_OPTION, 'flows', 'expected the advances (negative) before the payments');
  }
  return out.sort((a, b) => a.day - b.day);
}

const monthIndex = (day: Day) => {
  const { y, m } = toCivil(day);
  return y * 12 + (m - 1);
};

/** q whole base periods of `count` months from `start` (each from `start`, clamped) and the rest e. */
function monthsForward(
  start: Day,
  day: Day,
  count: number,
): { whole: number; frac: { n: bigint; d: bigint } } {
  let q = Math.max(0, Math.floor((monthIndex(day) - monthIndex(start)) / count) - 1);
  while (addMonths(start, (q + 1) * count) <= day) q++;
  while (q > 0 && addMonths(start, q * count) > day) q--;
  const from = addMonths(start, q * count);
  const to = addMonths(start, (q + 1) * count);
  return { whole: q, frac: { n: BigInt(day - from), d: BigInt(to - from) } };
}

function byDays(start: Day, day: Day, count: number) {
  const d = day - start;
  return { whole: Math.floor(d / count), frac: { n: BigInt(d % count), d: BigInt(count) } };
}

/** The day `months` months before `day`, on the series' day of the month (Appendix J (b)(3)(iv)). */
function monthsBack(day: Day, months: number, track: number): Day {
  const { y, m, d } = toCivil(day);
  const endOfMonth = d === daysInMonth(y, m);
  const dom = endOfMonth && track > d ? track : d;
  const index = y * 12 + (m - 1) - months;
  const ty = Math.floor(index / 12);
  const tm = index - ty * 12 + 1;
  return fromCivil(ty, tm, Math.min(dom, daysInMonth(ty, tm)));
}

/** Full months measured back from `day` to no earlier than `start`, and the days left over. */
function fullMonthsBack(start: Day, day: Day, track: number): { months: number; rest: number } {
  let m = Math.max(0, monthIndex(day) - monthIndex(start));
  while (m > 0 && monthsBack(day, m, track) < start) m--;
  return { months: m, rest: monthsBack(day, m, track) - start };
}

/** t and f of Appendix J (b)(5) for a flow on `day`, the term beginning on `start`. */
function unitPeriods(start: Day, day: Day, unit: UnitPeriod, track: number) {
  switch (unit.unit) {
    case 'day':
      return byDays(start, day, unit.count);
    case 'term':
      return byDays(start, day, unit.days);
    case 'month': {
      const { months, rest } = fullMonthsBack(start, day, track);
      if (unit.count === 1) return { whole: months, frac: { n: BigInt(rest), d: 30n } };
      return byDays(0, 30 * months + rest, 30 * unit.count);
    }
    case 'semimonth': {
      const { months, rest } = fullMonthsBack(start, day, track);
      return byDays(0, 30 * months + rest, 15);
    }
    case 'year': {
      const { months } = fullMonthsBack(start, day, track);
      const years = Math.floor(months / 12);
      const from = monthsBack(day, 12 * years, track);
      const left = fullMonthsBack(start, from, track);
      return left.rest === 0
        ? { whole: years, frac: { n: BigInt(left.months), d: 12n } }
        : { whole: years, frac: { n: BigInt(from - start), d: 365n } };
    }
  }
}

/** The most common day of the month among the payments (ties: the later day). */
function trackingDay(placed: readonly Placed[]): number {
  const counts = new Map<number, number>();
  for (const f of placed)
    if (f.amount > 0n) counts.set(toCivil(f.day).d, (counts.get(toCivil(f.day).d) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]?.[0] ?? 1;
}

function checkCount(value: number, field: string, max: number): number {
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw mathError(C.INVALID_OPTION, field, `expected an integer from 1 to ${max}`);
  }
  return value;
}

/** A single payment's period: its term in whole months when it is one, else in days. */
function termOf(start: Day, end: Day): { months: number } | { days: number } {
  const months = monthIndex(end) - monthIndex(start);
  return months > 0 && addMonths(start, months) === end ? { months } : { days: end - start };
}

// ---- 353-FZ -----------------------------------------------------------------------------------------

/**
 * The full cost of credit (ПСК) of `flows` by 353-FZ art. 6: the rate to three decimals and the cost in
 * money (the payments less the advances). `basePeriod` is the schedule's most frequent standard interval
 * (the loan's frequency); omitted for a single payment, the base period is its term (in months when a
 * whole number of months, else in days). q_k counts whole base periods from the disbursement (months by
 * the calendar, each from the disbursement day, clamped to the month's end), e_k the days after the
 * q_k-th one over the days of the base period it falls in. ЧБП = 12 / months, or 365 / days (a 365-day
 * year). Null rate when the payments do not repay the advances.
 */
export function fullCostOfCredit(flows: readonly CostFlow[], basePeriod?: BasePeriod): FullCostOfCredit {
  const placed = place(flows);
  const start = placed[0].day;
  const payments = placed.filter((f) => f.amount > 0n);
  let base: BasePeriod;
  if (basePeriod) {
    if (basePeriod.unit !== 'month' && basePeriod.unit !== 'day') {
      throw mathError(C.INVALID_OPTION, 'basePeriod.unit', 'expected month or day');
    }
    base = { unit: basePeriod.unit, count: checkCount(basePeriod.count, 'basePeriod.count', 36500) };
  } else if (payments.length === 1) {
    const term = termOf(start, payments[0].day);
    base = 'months' in term ? { unit: 'month', count: term.months } : { unit: 'day', count: term.days };
  } else {
    throw mathError(C.INVALID_OPTION, 'basePeriod', 'required when there is more than one payment');
  }
  const perYear =
    base.unit === 'month' ? { n: 12n, d: BigInt(base.count) } : { n: 365n, d: BigInt(base.count) };
  const timed = placed.map((f) => ({
    amount: f.amount,
    ...(base.unit === 'month' ? monthsForward(start, f.day, base.count) : byDays(start, f.day, base.count)),
  }));
  const total = placed.reduce((s, f) => s + f.amount, 0n);
  const amount = Number(total);
  if (!Number.isSafeInteger(amount)) throw mathError(C.OVERFLOW, 'amount', 'outside the safe-integer range');
  const rate = roundedAnnualRate(timed, perYear, 3);
  if (rate === null) throw mathError(C.INVALID_OPTION, 'flows', 'the payments do not repay the advances');
  return { rate, amount, basePeriod: base, periodsPerYear: ratioText(perYear.n, perYear.d) };
}

// ---- Regulation Z, Appendix J -----------------------------------------------------------------------

function perYearOf(unit: UnitPeriod): { n: bigint; d: bigint } {
  switch (unit.unit) {
    case 'month':
      return { n: 12n, d: BigInt(unit.count) };
    case 'semimonth':
      return { n: 24n, d: 1n };
    case 'year':
      return { n: 1n, d: 1n };
    case 'term':
      return { n: 365n, d: BigInt(unit.days) };
    case 'day':
      // (b)(5)(iv): a day 365 a year; a week or a multiple of one, 52 / the weeks in it.
      return unit.count === 1 ? { n: 365n, d: 1n } : { n: 52n * 7n, d: BigInt(unit.count) };
  }
}

function checkUnit(unit: UnitPeriod): UnitPeriod {
  switch (unit?.unit) {
    case 'month':
      return { unit: 'month', count: checkCount(unit.count, 'unitPeriod.count', 11) };
    case 'semimonth':
    case 'year':
      return { unit: unit.unit };
    case 'term':
      return { unit: 'term', days: checkCount(unit.days, 'unitPeriod.days', 365) };
    case 'day': {
      const count = checkCount(unit.count, 'unitPeriod.count', 364);
      if (count !== 1 && count % 7 !== 0) {
        throw mathError(C.INVALID_OPTION, 'unitPeriod.count', 'expected a day or a multiple of a week');
      }
      return { unit: 'day', count };
    }
    default:
      throw mathError(C.INVALID_OPTION, 'unitPeriod.unit', 'expected month, semimonth, day, year or term');
  }
}

/**
 * The annual percentage rate of `flows` by Appendix J's actuarial method, to two decimals. The term
 * begins with the first advance. `unitPeriod` is the transaction's most frequent common period (the
 * loan's frequency); omitted for a single advance and single payment, it is the term ((b)(4)(ii)): its
 * months (12 / months a year) or, when not a whole number of months, its days (365 / days a year), and
 * a year when the term is longer ((b)(5)(v)). Months are measured back from each flow's date on the
 * series' day of the month; the fraction of a month is its days over 30. `regular` is false (and the
 * tolerance 1/4 point) when there is more than one advance, or the payments other than the first and the
 * last differ, or a period other than the first is not one unit-period (§1026.22(a)(3)).
 */
export function annualPercentageRate(
  flows: readonly CostFlow[],
  unitPeriod?: UnitPeriod,
): AnnualPercentageRate {
  const placed = place(flows);
  const start = placed[0].day;
  const payments = placed.filter((f) => f.amount > 0n);
  const advances = placed.filter((f) => f.amount < 0n);
  let unit: UnitPeriod;
  if (unitPeriod) unit = checkUnit(unitPeriod);
  else if (payments.length === 1 && advances.length === 1) {
    const term = termOf(start, payments[0].day);
    unit =
      'months' in term
        ? term.months < 12
          ? { unit: 'month', count: term.months }
          : { unit: 'year' }
        : term.days < 365
          ? { unit: 'term', days: term.days }
          : { unit: 'year' };
  } else throw mathError(C.INVALID_OPTION, 'unitPeriod', 'required unless one advance and one payment');
  const track = trackingDay(placed);
  const timed = placed.map((f) => ({ amount: f.amount, ...unitPeriods(start, f.day, unit, track) }));
  const perYear = perYearOf(unit);
  const rate = roundedAnnualRate(timed, perYear, 2);
  if (rate === null) throw mathError(C.INVALID_OPTION, 'flows', 'the payments do not repay the advances');
  const paid = timed.filter((t) => t.amount > 0n);
  const middle = paid.slice(1, -1);
  const regular =
    advances.length === 1 &&
    middle.every((t) => t.amount === middle[0].amount) &&
    paid.every(
      (t, k) =>
        k === 0 ||
        (t.whole === paid[k - 1].whole + 1 &&
          t.frac.n * paid[k - 1].frac.d === paid[k - 1].frac.n * t.frac.d),
    );
  return {
    rate,
    unitPeriod: unit,
    unitPeriodsPerYear: ratioText(perYear.n, perYear.d),
    regular,
    tolerance: regular ? '0.125' : '0.25',
  };
}
