import { AvailabilityError, AvailabilityErrorReason as R } from './availability.errors';
import { MAX_INSTANT } from './intervals';

/**
 * Where the next page begins, as keys rather than offsets (keyset pagination): a slot is identified by
 * its ranking key (optional participants free, start), so a page boundary stays put when a slot before
 * it disappears between two calls. `null` means that list is exhausted.
 */
export interface SlotCursor {
  /** The first slot of the next page, or null. */
  slots: { optionalFree: number; start: number } | null;
  /** The first rejected start (explain) of the next page, or null. */
  excluded: number | null;
}

/** The position before everything: what a request without a cursor means. */
export const FIRST_PAGE: SlotCursor = {
  slots: { optionalFree: Number.MAX_SAFE_INTEGER, start: 0 },
  excluded: 0,
};

const EXHAUSTED = '_';
const FORMAT = /^v1\.(?:(\d{1,4})\.(\d{1,16})|_\._)\.(\d{1,16}|_)$/;

/** `v1.<optionalFree>.<start>.<excludedStart>`, `_` for an exhausted list. Opaque to clients. */
export function encodeCursor(c: SlotCursor): string {
  const slots = c.slots ? `${c.slots.optionalFree}.${c.slots.start}` : `${EXHAUSTED}.${EXHAUSTED}`;
  return `v1.${slots}.${c.excluded ?? EXHAUSTED}`;
}

/** @throws AvailabilityError INVALID_CURSOR for anything `encodeCursor` could not have produced. */
export function decodeCursor(cursor: string): SlotCursor {
  const m = FORMAT.exec(cursor);
  if (!m) throw new AvailabilityError(R.INVALID_CURSOR, 'cursor');
  const start = m[2] === undefined ? null : Number(m[2]);
  const excluded = m[3] === EXHAUSTED ? null : Number(m[3]);
  if ((start !== null && start > MAX_INSTANT) || (excluded !== null && excluded > MAX_INSTANT)) {
    throw new AvailabilityError(R.INVALID_CURSOR, 'cursor');
  }
  return {
    slots: start === null ? null : { optionalFree: Number(m[1]), start },
    excluded,
  };
}
