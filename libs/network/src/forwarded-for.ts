import { normalizeAddress } from './ip-address';

/** The addresses of an `X-Forwarded-For` header (one or several), normalised; junk entries left out. */
export function forwardedForChain(header: string | string[] | undefined): string[] {
  return (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((a) => normalizeAddress(a))
    .filter((a): a is string => a !== undefined);
}

/**
 * The client of a forwarding chain (X-Forwarded-For entries, then the peer): the rightmost address
 * that is not a trusted proxy, the leftmost when all are. Entries a client adds on the left cannot move
 * it (decision 0013).
 */
export function rightmostUntrusted(chain: readonly string[], trusts: (address: string) => boolean): string {
  for (let i = chain.length - 1; i >= 0; i--) if (!trusts(chain[i])) return chain[i];
  return chain[0];
}
