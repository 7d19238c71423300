/** SQL `IN` list of a constant tuple, for CHECK constraints that must read the same in entity and migration. */
export const sqlIn = (column: string, values: readonly string[]) =>
  `${column} IN (${values.map((v) => `'${v}'`).join(', ')})`;

/**
 * A `bigint` column read as a JS number (the driver returns a string). Money in minor units stays
 * far below 2^53 (requests are bounded to MAX_MINOR_UNITS), so nothing is lost.
 */
export const bigintNumber = {
  to: (v: number | null | undefined) => v,
  from: (v: string | null) => (v === null ? null : Number(v)),
};

/** The largest amount in minor units a request may carry (10^15; well inside 2^53). */
export const MAX_MINOR_UNITS = 1_000_000_000_000_000;
