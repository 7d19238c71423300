/** The largest amount in minor units a request may carry (10^15; well inside 2^53). */
export const MAX_MINOR_UNITS = 1_000_000_000_000_000;
