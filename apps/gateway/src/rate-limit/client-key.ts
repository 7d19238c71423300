import { isIPv6 } from 'node:net';

/** The eight 16-bit groups of an IPv6 address (already normalised: no zone, lower case). */
function groups(address: string): number[] {
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined];
  const parse = (part: string) => (part ? part.split(':') : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  // An embedded IPv4 tail (::ffff:1.2.3.4 is turned into IPv4 earlier; others like 64:ff9b::1.2.3.4).
  const expand = (parts: string[]) =>
    parts.flatMap((p) => {
      if (!p.includes('.')) return [parseInt(p, 16)];
      const [a, b, c, d] = p.split('.').map(Number);
      return [(a << 8) | b, (c << 8) | d];
    });
  const l = expand(left);
  const r = expand(right);
  return [...l, ...Array<number>(Math.max(0, 8 - l.length - r.length)).fill(0), ...r];
}

/**
 * What one client's budget is counted under: an IPv4 address as it is, an IPv6 address by its first
 * `ipv6Prefix` bits (64 by default: one subscriber usually holds a whole /64, so counting single
 * addresses would give them 2^64 budgets).
 */
export function clientKey(address: string, ipv6Prefix: number): string {
  if (!isIPv6(address) || ipv6Prefix >= 128) return address;
  const g = groups(address);
  const out: string[] = [];
  for (let i = 0; i < 8; i++) {
    const bits = Math.max(0, Math.min(16, ipv6Prefix - i * 16));
    const mask = bits === 0 ? 0 : (0xffff << (16 - bits)) & 0xffff;
    out.push((g[i] & mask).toString(16));
  }
  return `${out.join(':')}/${ipv6Prefix}`;
}
