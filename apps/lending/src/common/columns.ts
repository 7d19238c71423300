/** SQL `IN` list of a constant tuple, for CHECK constraints that must read the same in entity and migration. */
export const sqlIn = (column: string, values: readonly string[]) =>
  `${column} IN (${values.map((v) => `'${v}'`).join(', ')})`;

/**
 * A `bigint` column read as a JS number (the driver returns a string). Money in minor units stays
 * within Number.MAX_SAFE_INTEGER: requests are bounded to MAX_MINOR_UNITS and every computed amount is
 * range-checked before it is stored (docs/lending/loan-math.md, "Exact money"), so nothing is lost.
 */
export const bigintNumber = {
  to: (v: number | null | undefined) => v,
  from: (v: string | null) => (v === null ? null : Number(v)),
};
