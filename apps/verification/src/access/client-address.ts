import type { IncomingHttpHeaders } from 'node:http';
import {
  IpBlocks,
  forwardedForChain,
  normalizeAddress,
  rightmostUntrusted,
  splitCidrList,
} from '@platform/network';

/**
 * Default `TRUSTED_PROXIES`: loopback and the private ranges a cluster's gateway pods live in. The
 * service is reached only through the gateway (decision 0013), which rewrites `X-Forwarded-For` itself;
 * a deployment narrows this to its gateway pods' range.
 */
export const DEFAULT_TRUSTED_PROXIES = '127.0.0.0/8,::1/128,10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,fc00::/7';

/**
 * The caller's address for the IP allowlist, the way the gateway determines X-Real-IP (decision 0013):
 * a peer outside `trusted` is the client whatever headers it sends; a trusted peer (the gateway, an
 * ingress) speaks through `X-Forwarded-For`, and the client is the rightmost address of that chain that
 * is not itself a trusted proxy (entries a client adds on the left cannot move it). Undefined only when
 * the socket has no address (it was closed).
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

export const trustedProxies = (setting: string) => new IpBlocks(splitCidrList(setting));
