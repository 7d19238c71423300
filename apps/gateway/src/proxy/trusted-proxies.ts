import { IpBlocks, parseCidr, splitCidrList } from '@platform/network';

/** Loopback only: nothing in front of the gateway may speak for the client unless a deployment says so. */
export const DEFAULT_TRUSTED_PROXIES = '127.0.0.0/8,::1/128';

const MEMO_MAX = 10_000;

/**
 * The proxies allowed to speak for a client (`GATEWAY_TRUSTED_PROXIES`, a CIDR list of libs/network):
 * only their X-Forwarded-* headers are believed. IPv4 and IPv6 blocks; an IPv4-mapped peer address
 * matches IPv4 blocks.
 */
export class TrustedProxies {
  private readonly list: IpBlocks;
  /**
   * Answers by address: BlockList.check builds a SocketAddress per call, which cost ~5% of a cached
   * GET's CPU (bench/status-page). Derived from configuration only, so a per-process memo is safe; it
   * is cleared when full, so hostile address churn costs memory bounded by MEMO_MAX.
   */
  private readonly memo = new Map<string, boolean>();

  constructor(text: string) {
    const entries = splitCidrList(text);
    for (const entry of entries) {
      const parsed = parseCidr(entry);
      if (typeof parsed === 'string') throw new Error(`GATEWAY_TRUSTED_PROXIES: ${parsed}`);
    }
    this.list = new IpBlocks(entries);
  }

  get blocks(): readonly string[] {
    return this.list.blocks;
  }

  /** True when the address (as a socket or X-Forwarded-For reports it) lies in a trusted block. */
  trusts(address: string | undefined): boolean {
    if (address === undefined) return false;
    const known = this.memo.get(address);
    if (known !== undefined) return known;
    const trusted = this.list.contains(address);
    if (this.memo.size >= MEMO_MAX) this.memo.clear();
    this.memo.set(address, trusted);
    return trusted;
  }
}
