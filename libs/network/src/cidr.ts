import { BlockList, isIP } from 'node:net';
import { normalizeAddress, parseV4, parseV6 } from './ip-address';

export interface CidrBlock {
  network: string;
  prefix: number;
  type: 'ipv4' | 'ipv6';
}

function toBigInt(address: string, type: 'ipv4' | 'ipv6'): bigint {
  if (type === 'ipv4') return BigInt(parseV4(address) ?? 0);
  return (parseV6(address) ?? []).reduce((n, g) => (n << 16n) | BigInt(g), 0n);
}

function ipv4FromBigInt(n: bigint): string {
  return [24n, 16n, 8n, 0n].map((s) => String((n >> s) & 0xffn)).join('.');
}

/** RFC 5952 text: lower case, no leading zeros, the longest run of two or more zero groups as `::`. */
function ipv6FromBigInt(n: bigint): string {
  const groups = Array.from({ length: 8 }, (_, i) => Number((n >> BigInt((7 - i) * 16)) & 0xffffn));
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) [best, bestLen] = [i, j - i];
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best === -1) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}

/**
 * One allowlist or trusted-proxy entry: `a.b.c.d/n`, `ipv6/n`, or a bare address (that one host).
 * Host bits are cleared (`10.1.2.3/8` is `10.0.0.0/8`), IPv4-mapped IPv6 becomes IPv4, IPv6 is written
 * in its RFC 5952 form; a string explains what is wrong.
 */
export function parseCidr(entry: string): CidrBlock | string {
  const text = entry.trim();
  const slash = text.indexOf('/');
  const address = normalizeAddress(slash === -1 ? text : text.slice(0, slash));
  if (!address || (slash === -1 ? text : text.slice(0, slash)).includes('%'))
    return `"${entry}" is not an IP address or CIDR block`;
  const type = isIP(address) === 4 ? 'ipv4' : 'ipv6';
  const bits = type === 'ipv4' ? 32 : 128;
  const prefixText = slash === -1 ? String(bits) : text.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > bits)
    return `"${entry}" has a prefix length outside 0-${bits}`;
  const prefix = Number(prefixText);
  const value = toBigInt(address, type);
  const mask = prefix === 0 ? 0n : ((1n << BigInt(prefix)) - 1n) << BigInt(bits - prefix);
  const masked = value & mask;
  return {
    network: type === 'ipv4' ? ipv4FromBigInt(masked) : ipv6FromBigInt(masked),
    prefix,
    type,
  };
}

export const formatCidr = (b: CidrBlock) => `${b.network}/${b.prefix}`;

/**
 * A list of entries normalised (see `parseCidr`) and without duplicates, in the order given; or the
 * entries that are not valid.
 */
export function normalizeCidrList(entries: readonly string[]): { blocks: string[] } | { invalid: string[] } {
  const invalid: string[] = [];
  const blocks: string[] = [];
  for (const entry of entries) {
    const parsed = parseCidr(entry);
    if (typeof parsed === 'string') invalid.push(entry);
    else if (!blocks.includes(formatCidr(parsed))) blocks.push(formatCidr(parsed));
  }
  return invalid.length ? { invalid } : { blocks };
}

/** A set of CIDR blocks an address is tested against (node:net BlockList; IPv4-mapped peers match IPv4). */
export class IpBlocks {
  private readonly list = new BlockList();
  readonly blocks: readonly string[];

  /** Entries must be valid (`normalizeCidrList` or a validated setting); an invalid one throws. */
  constructor(entries: readonly string[]) {
    const blocks: string[] = [];
    for (const entry of entries) {
      const parsed = parseCidr(entry);
      if (typeof parsed === 'string') throw new Error(parsed);
      this.list.addSubnet(parsed.network, parsed.prefix, parsed.type);
      blocks.push(formatCidr(parsed));
    }
    this.blocks = blocks;
  }

  get isEmpty(): boolean {
    return this.blocks.length === 0;
  }

  contains(address: string | undefined): boolean {
    const a = normalizeAddress(address);
    return !!a && this.list.check(a, isIP(a) === 4 ? 'ipv4' : 'ipv6');
  }
}

/**
 * The problems of a CIDR list setting (`10.0.0.0/8, fd00::/8, 192.0.2.7`: comma or space separated, a
 * bare address meaning that one host); empty when it is valid.
 */
export function cidrListProblems(text: string): string[] {
  return splitCidrList(text).flatMap((e) => {
    const parsed = parseCidr(e);
    return typeof parsed === 'string' ? [parsed] : [];
  });
}

/** The entries of a comma- or space-separated CIDR list setting. */
export const splitCidrList = (text: string) => text.split(/[\s,]+/).filter(Boolean);
