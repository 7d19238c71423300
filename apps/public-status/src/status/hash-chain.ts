import { createHash } from 'node:crypto';

/** The previous hash of a chain's first row. */
export const GENESIS_HASH = '0'.repeat(64);

/** JSON with keys sorted at every level: the one byte form a row is hashed in, reproducible by anyone. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** hex sha256(prev_hash || canonical row): the prev hash as its 64 hex characters, then the JSON. */
export function chainHash(prevHash: string, row: unknown): string {
  return createHash('sha256').update(prevHash).update(canonicalJson(row)).digest('hex');
}

export interface ChainLink {
  prevHash: string;
  hash: string;
  canonical: unknown;
}

/** Index of the first row whose link or hash does not hold, or -1 when the whole chain verifies. */
export function firstBrokenLink(links: readonly ChainLink[]): number {
  let prev = GENESIS_HASH;
  for (let i = 0; i < links.length; i++) {
    const l = links[i];
    if (l.prevHash !== prev || chainHash(prev, l.canonical) !== l.hash) return i;
    prev = l.hash;
  }
  return -1;
}
