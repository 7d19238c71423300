import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** A random public id (`inc_...`, `mnt_...`): 12 base32 characters, 60 bits, like Statuspage's ids. */
export function publicCode(prefix: 'inc' | 'mnt'): string {
  const bytes = randomBytes(12);
  let out = '';
  for (const b of bytes) out += ALPHABET[b & 31];
  return `${prefix}_${out}`;
}

export const PUBLIC_CODE_PATTERN = /^(inc|mnt)_[a-z2-7]{12}$/;
