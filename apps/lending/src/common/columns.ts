/** SQL `IN` list of a constant tuple, for CHECK constraints that must read the same in entity and migration. */
export const sqlIn = (column: string, values: readonly string[]) =>
  `${column} IN (${values.map((v) => `'${v}'`).join(', ')})`;

/**
 * A `bigint` column read as a JS number (the driver returns a string). Money in minor units stays
 * within Number.MAX_SAFE_INTEGER: requests are bounded to MAX_MINOR_UNITS and every computed amount is
 * range-checked before it is stored (docs/lending/loan-math.md, "Numbers"); a stored value outside it is refused when read, so nothing is lost.
 */
export const bigintNumber = {
  to: (v: number | null | undefined) => v,
  from: (v: string | null): number | null => {
    if (v === null) return null;
    const n = Number(v);
    // Refused, never rounded: a value past 2^53 read as the nearest double would be off by a unit.
    if (!Number.isSafeInteger(n)) throw new RangeError(`bigint column value ${v} is outside the exact range`);
    return n;
  },
};
