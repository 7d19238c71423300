import { LoanMathErrorCode as C, mathError } from './errors';

/**
 * How one amount is rounded to a whole minor unit, with Java `RoundingMode` semantics (magnitude-based,
 * symmetric for negatives): 'half-up' rounds ties away from zero (Excel ROUND, the default), 'half-even'
 * rounds ties to the even neighbour (banker's rounding), 'down' truncates toward zero, 'up' rounds away
 * from zero.
 */
export type Rounding = 'half-up' | 'half-even' | 'down' | 'up';
export const ROUNDINGS: readonly Rounding[] = ['half-up', 'half-even', 'down', 'up'];
export const DEFAULT_ROUNDING: Rounding = 'half-up';

/** Places of a minor unit kept in the `exact` decimal strings (interest, accruals). */
export const EXACT_PLACES = 12;

/** An exact non-normalised fraction n/d with d > 0. Internal currency of every money computation. */
export interface Ratio {
  n: bigint;
  d: bigint;
}

export const mul = (a: Ratio, b: Ratio): Ratio => ({ n: a.n * b.n, d: a.d * b.d });
export const add = (a: Ratio, b: Ratio): Ratio =>
  a.d === b.d ? { n: a.n + b.n, d: a.d } : { n: a.n * b.d + b.n * a.d, d: a.d * b.d };
export const sub = (a: Ratio, b: Ratio): Ratio => add(a, { n: -b.n, d: b.d });
export const ZERO: Ratio = { n: 0n, d: 1n };

/** n/d rounded to an integer with the given mode (d must be positive). */
export function roundDiv(n: bigint, d: bigint, mode: Rounding): bigint {
  if (d <= 0n) throw new Error(`roundDiv: non-positive denominator ${d}`);
  const negative = n < 0n;
  const a = negative ? -n : n;
  let q = a / d;
  const r = a % d;
  if (r !== 0n) {
    const twice = 2n * r;
    if (mode === 'up') q += 1n;
    else if (mode === 'half-up' && twice >= d) q += 1n;
    else if (mode === 'half-even' && (twice > d || (twice === d && q % 2n === 1n))) q += 1n;
  }
  return negative ? -q : q;
}

export const roundRatio = (x: Ratio, mode: Rounding): bigint => roundDiv(x.n, x.d, mode);

export function checkRounding(value: unknown, field = 'rounding'): Rounding {
  if (value === undefined) return DEFAULT_ROUNDING;
  if (!ROUNDINGS.includes(value as Rounding)) {
    throw mathError(C.INVALID_OPTION, field, `expected one of ${ROUNDINGS.join(', ')}`);
  }
  return value as Rounding;
}

/**
 * Guards an amount of minor units: a JS number that is a safe integer (so exact), at least `min`.
 * Throws LoanMathError (a RangeError) otherwise. Returns it as a bigint for the arithmetic.
 */
export function minor(value: unknown, field: string, min = 0): bigint {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw mathError(C.INVALID_AMOUNT, field, 'not a safe integer of minor units');
  }
  if (value < min) throw mathError(C.INVALID_AMOUNT, field, `must be at least ${min}`);
  return BigInt(value);
}

/**
 * The largest amount a schedule may total (principal + interest + fees over its whole term), in minor
 * units: 10^15, the most one request may carry (MAX_MINOR_UNITS of the API, kept equal by a test), so a
 * borrower can always settle the whole schedule in one payment, and the loan's ledger over its life
 * (disbursement, accruals, payments, a reversal) stays far inside the exact range
 * (docs/decisions/0030-exact-money-range.md).
 */
export const MAX_SCHEDULE_TOTAL = 1_000_000_000_000_000n;

/** Refuses (LOAN_MATH_OVERFLOW) instalments whose totals add up to more than MAX_SCHEDULE_TOTAL. */
export function checkScheduleTotal<T extends { total: number }>(rows: readonly T[], field = 'total'): T[] {
  let sum = 0n;
  for (const r of rows) sum += BigInt(r.total);
  if (sum > MAX_SCHEDULE_TOTAL)
    throw mathError(C.OVERFLOW, field, `the schedule totals ${sum}, above ${MAX_SCHEDULE_TOTAL}`);
  return [...rows];
}

/** Back to a JS number; a result outside the safe-integer range is refused, never approximated. */
export function toNumber(value: bigint, field: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || BigInt(n) !== value) {
    throw mathError(C.OVERFLOW, field, 'result outside the safe-integer range');
  }
  return n;
}

const RATE = /^(0|[1-9]\d{0,3})(?:\.(\d{1,10}))?$/;

/**
 * A nominal annual rate in percent, written as a plain decimal string ("8", "19.99", "0.05"; at most
 * 4 integer and 10 fraction digits, no sign, exponent or spaces), parsed exactly into the fraction of
 * one (8% -> 8/100).
 */
export function parseRate(value: unknown, field = 'annualRate'): Ratio {
  const m = typeof value === 'string' ? RATE.exec(value) : null;
  if (!m) throw mathError(C.INVALID_RATE, field, 'expected a decimal percent string such as "8" or "19.99"');
  const frac = m[2] ?? '';
  return { n: BigInt(m[1] + frac), d: 100n * 10n ** BigInt(frac.length) };
}

/** x as a decimal string with exactly `places` places (half-even at the last place). */
export function formatExact(x: Ratio, places = EXACT_PLACES): string {
  const scaled = roundDiv(x.n * 10n ** BigInt(places), x.d, 'half-even');
  const negative = scaled < 0n;
  const digits = (negative ? -scaled : scaled).toString().padStart(places + 1, '0');
  const cut = digits.length - places;
  return `${negative ? '-' : ''}${digits.slice(0, cut)}.${digits.slice(cut)}`;
}

const DECIMAL = /^-?\d{1,30}(?:\.\d{1,30})?$/;

/** Parses a decimal string ("-12.5", "0.000000000001") exactly. */
export function parseExact(value: unknown, field: string): Ratio {
  if (typeof value !== 'string' || !DECIMAL.test(value)) {
    throw mathError(C.INVALID_DECIMAL, field, 'expected a decimal string such as "123.456000000000"');
  }
  const negative = value.startsWith('-');
  const [int, frac = ''] = (negative ? value.slice(1) : value).split('.');
  const n = BigInt(int + frac);
  return { n: negative ? -n : n, d: 10n ** BigInt(frac.length) };
}
