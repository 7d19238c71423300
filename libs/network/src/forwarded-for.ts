import type { IncomingHttpHeaders } from 'node:http';
import { IpBlocks, splitCidrList } from './cidr';
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

/**
 * Trusted peers by default for a service behind the gateway: loopback and the private ranges a
 * cluster's gateway pods live in (the gateway rewrites `X-Forwarded-For` itself, decision 0013). A
 * deployment narrows it to its gateway pods' range.
 */
export const CLUSTER_TRUSTED_PROXIES = '127.0.0.0/8,::1/128,10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,fc00::/7';

/** A validated trusted-proxies setting (CIDR blocks, comma separated) as blocks. */
export const trustedProxies = (setting: string) => new IpBlocks(splitCidrList(setting));

/**
 * The caller's address as a service behind the gateway sees it, the way the gateway determines
 * X-Real-IP (decision 0013): a peer outside `trusted` is the client whatever headers it sends; a
 * trusted peer (the gateway, an ingress) speaks through `X-Forwarded-For`, and the client is the
 * rightmost address of that chain that is not itself a trusted proxy (entries a client adds on the
 * left cannot move it). Undefined only when the socket has no address (it was closed). Per-IP limits
 * and IP allowlists read it.
 */
export function clientAddress(
  peerAddress: string | undefined,
  headers: IncomingHttpHeaders,
  trusted: IpBlocks,
): string | undefined {
  const peer = normalizeAddress(peerAddress);
  if (!peer || !trusted.contains(peer)) return peer;
  return rightmostUntrusted([...forwardedForChain(headers['x-forwarded-for']), peer], (a) =>
    trusted.contains(a),
  );
}
