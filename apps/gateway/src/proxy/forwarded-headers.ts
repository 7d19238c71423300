import type { IncomingHttpHeaders } from 'node:http';
import { forwardedForChain, normalizeAddress, rightmostUntrusted } from '@platform/network';
import type { TrustedProxies } from './trusted-proxies';

/**
 * Headers through which a client could claim another address or scheme. Only a trusted proxy's copies
 * are passed on; the gateway sets X-Forwarded-For/-Proto/-Host and X-Real-IP itself either way.
 */
const CLAIMS = [
  'forwarded',
  'x-forwarded-port',
  'x-forwarded-prefix',
  'x-forwarded-server',
  'x-client-ip',
  'true-client-ip',
];

const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export interface Forwarding {
  /** Replaces what the caller sent under these names. */
  set: {
    'x-forwarded-for': string;
    'x-forwarded-proto': 'http' | 'https';
    'x-forwarded-host'?: string;
    /** The client as the gateway determined it: what per-IP limits and IP allowlists should read. */
    'x-real-ip': string;
  };
  /** Removed from the forwarded request (a spoofed claim from an untrusted peer). */
  drop: string[];
}

/** A trusted proxy's X-Forwarded-For, addresses only (it may relay a client's junk); nothing otherwise. */
function relayedChain(headers: IncomingHttpHeaders, fromProxy: boolean): string[] {
  return fromProxy ? forwardedForChain(headers['x-forwarded-for']) : [];
}

/** The rightmost address of the chain that is not a trusted proxy (the leftmost when all are). */
const clientOf = (chain: readonly string[], trusted: TrustedProxies) =>
  rightmostUntrusted(chain, (a) => trusted.trusts(a));

/**
 * The client's address as the gateway determines it, the same as the X-Real-IP it sends upstream:
 * what per-IP limits read. An untrusted peer is the client whatever it claims.
 */
export function clientAddress(
  headers: IncomingHttpHeaders,
  peerAddress: string | undefined,
  trusted: TrustedProxies,
): string {
  const peer = normalizeAddress(peerAddress) ?? 'unknown';
  if (!trusted.trusts(peer)) return peer;
  return clientOf([...relayedChain(headers, true), peer], trusted);
}

/**
 * X-Forwarded-* for the upstream request. A trusted peer (GATEWAY_TRUSTED_PROXIES) keeps its
 * X-Forwarded-For, to which the peer is appended, and its proto and host; an untrusted peer's headers
 * are replaced, never appended to: X-Forwarded-For is the peer alone, proto and host are the gateway's
 * own view. X-Real-IP is the rightmost address that is not a trusted proxy.
 */
export function forwarding(
  headers: IncomingHttpHeaders,
  peerAddress: string | undefined,
  encrypted: boolean,
  trusted: TrustedProxies,
): Forwarding {
  const peer = normalizeAddress(peerAddress) ?? 'unknown';
  const fromProxy = trusted.trusts(peer);
  const chain = [...relayedChain(headers, fromProxy), peer];
  const client = clientOf(chain, trusted);
  const ownProto = encrypted ? 'https' : 'http';
  const claimedProto = first(headers['x-forwarded-proto'])?.split(',')[0].trim().toLowerCase();
  const proto = fromProxy && (claimedProto === 'http' || claimedProto === 'https') ? claimedProto : ownProto;
  const claimedHost = first(headers['x-forwarded-host'])?.split(',')[0].trim();
  const ownHost = headers.host;
  const host =
    fromProxy && claimedHost && HOST.test(claimedHost)
      ? claimedHost
      : ownHost && HOST.test(ownHost)
        ? ownHost
        : undefined;
  return {
    set: {
      'x-forwarded-for': chain.join(', '),
      'x-forwarded-proto': proto,
      ...(host ? { 'x-forwarded-host': host } : {}),
      'x-real-ip': client,
    },
    drop: fromProxy ? [] : CLAIMS,
  };
}
