import { BlockList, isIP } from 'node:net';

/** Loopback only: nothing in front of the gateway may speak for the client unless a deployment says so. */
export const DEFAULT_TRUSTED_PROXIES = '127.0.0.0/8,::1/128';

/**
 * An address as the gateway writes it: IPv4-mapped IPv6 (`::ffff:10.0.0.1`, what a dual-stack socket
 * reports) as plain IPv4, without an IPv6 zone; undefined when it is not an IP address.
 */
export function normalizeAddress(address: string | undefined): string | undefined {
  if (!address) return undefined;
  let a = address.trim();
  if (a.startsWith('[') && a.endsWith(']')) a = a.slice(1, -1);
  const zone = a.indexOf('%');
  if (zone !== -1) a = a.slice(0, zone);
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(a);
  if (mapped) a = mapped[1];
  return isIP(a) ? a.toLowerCase() : undefined;
}

/**
 * The problems of a CIDR list (`10.0.0.0/8, fd00::/8, 192.0.2.7`: comma or space separated, a bare
 * address meaning that one host); empty when it is valid.
 */
export function cidrListProblems(text: string): string[] {
  return entries(text).flatMap((entry) => {
    const parsed = parseEntry(entry);
    return typeof parsed === 'string' ? [parsed] : [];
  });
}

const entries = (text: string) => text.split(/[\s,]+/).filter(Boolean);

function parseEntry(entry: string): { network: string; prefix: number; type: 'ipv4' | 'ipv6' } | string {
  const slash = entry.indexOf('/');
  const address = slash === -1 ? entry : entry.slice(0, slash);
  const network = isIP(address) ? normalizeAddress(address) : undefined;
  if (!network) return `"${entry}" is not an IP address or CIDR block`;
  const type = isIP(network) === 4 ? 'ipv4' : 'ipv6';
  const max = type === 'ipv4' ? 32 : 128;
  const prefixText = slash === -1 ? String(max) : entry.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > max)
    return `"${entry}" has a prefix length outside 0-${max}`;
  return { network, prefix: Number(prefixText), type };
}

const MEMO_MAX = 10_000;

/**
 * The proxies allowed to speak for a client (`GATEWAY_TRUSTED_PROXIES`): only their X-Forwarded-*
 * headers are believed. IPv4 and IPv6 blocks; an IPv4-mapped peer address matches IPv4 blocks.
 */
export class TrustedProxies {
  private readonly list = new BlockList();
  /**
   * Answers by address: BlockList.check builds a SocketAddress per call, which cost ~5% of a cached
   * GET's CPU (bench/status-page). Derived from configuration only, so a per-process memo is safe; it
   * is cleared when full, so hostile address churn costs memory bounded by MEMO_MAX.
   */
  private readonly memo = new Map<string, boolean>();
  readonly blocks: readonly string[];

  constructor(text: string) {
    const blocks: string[] = [];
    for (const entry of entries(text)) {
      const parsed = parseEntry(entry);
      if (typeof parsed === 'string') throw new Error(`GATEWAY_TRUSTED_PROXIES: ${parsed}`);
      this.list.addSubnet(parsed.network, parsed.prefix, parsed.type);
      blocks.push(`${parsed.network}/${parsed.prefix}`);
    }
    this.blocks = blocks;
  }

  /** True when the address (as a socket or X-Forwarded-For reports it) lies in a trusted block. */
  trusts(address: string | undefined): boolean {
    if (address === undefined) return false;
    const known = this.memo.get(address);
    if (known !== undefined) return known;
    const a = normalizeAddress(address);
    const trusted = !!a && this.list.check(a, isIP(a) === 4 ? 'ipv4' : 'ipv6');
    if (this.memo.size >= MEMO_MAX) this.memo.clear();
    this.memo.set(address, trusted);
    return trusted;
  }
}
