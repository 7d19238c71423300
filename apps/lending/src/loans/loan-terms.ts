/**
 * The closed sets and small conversions of loan terms shared by products, loans, the DTOs and the
 * migration (docs/lending/loans.md). The money mathematics (./math) owns the sets; they are repeated
 * here as tuples only where a DTO or a CHECK constraint needs a literal list.
 */
import {
  DAY_COUNTS,
  DEBT_COMPONENTS,
  FREQUENCIES,
  INTEREST_METHODS,
  ROUNDINGS,
  SCHEDULE_TYPES,
  type DebtComponent,
} from './math';

export { DAY_COUNTS, DEBT_COMPONENTS, FREQUENCIES, INTEREST_METHODS, ROUNDINGS, SCHEDULE_TYPES };

/**
 * A nominal annual rate in percent as the API and the math take it: "8", "19.99", "0.05" (at most 4
 * integer and 10 fraction digits, no sign or exponent). Stored as numeric(14,10).
 */
export const RATE_PATTERN = /^(0|[1-9]\d{0,3})(\.\d{1,10})?$/;
/** The highest nominal annual rate a product may carry, in percent. */
export const MAX_RATE_PERCENT = 1000;

/** numeric(14,10) comes back as "24.5000000000": the shortest form, "24.5" ("0" for zero). */
export function normaliseRate(text: string): string {
  if (!text.includes('.')) return text;
  const trimmed = text.replace(/0+$/, '').replace(/\.$/, '');
  return trimmed === '' ? '0' : trimmed;
}

/** A rate column read as its shortest decimal string (numeric comes as a string: no float ever). */
export const rateText = {
  to: (v: string | null | undefined) => v,
  from: (v: string | null) => (v === null ? null : normaliseRate(v)),
};

/** Whether a percent string is within [0, MAX_RATE_PERCENT]. */
export function rateWithinLimit(rate: string): boolean {
  return RATE_PATTERN.test(rate) && Number(rate.split('.')[0]) < MAX_RATE_PERCENT;
}

/**
 * `percent`% of `amount` minor units, rounded half-up to a whole minor unit, exactly (bigint): the
 * origination fee's percentage part.
 */
export function percentOf(amount: number, percent: string): number {
  const [int, frac = ''] = percent.split('.');
  const scaled = BigInt(int + frac);
  const den = 100n * 10n ** BigInt(frac.length);
  const num = BigInt(amount) * scaled;
  const q = num / den;
  return Number(2n * (num % den) >= den ? q + 1n : q);
}

/** Basis points (applications' offered rate, 2450) as a percent string ("24.5"). */
export function bpsToPercent(bps: number): string {
  const int = Math.trunc(bps / 100);
  const frac = String(bps % 100).padStart(2, '0');
  return normaliseRate(`${int}.${frac}`);
}

/** The default allocation order (costs, then overdue, then current). */
export const DEFAULT_ALLOCATION_ORDER: readonly DebtComponent[] = DEBT_COMPONENTS;

/** The whole months of a term, in the product's periods, when they convert exactly. */
export function periodsOfMonths(months: number, frequency: string): number | null {
  if (frequency === 'monthly') return months;
  if (frequency === 'quarterly') return months % 3 === 0 ? months / 3 : null;
  return null;
}
