import { isIP, isIPv4, isIPv6 } from 'node:net';

/**
 * An address as every IP check compares it: IPv4-mapped IPv6 (`::ffff:10.0.0.1`, what a dual-stack
 * socket reports) as plain IPv4, brackets and an IPv6 zone removed, lower case; undefined when it is
 * not an IP address.
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

/** An IPv4 literal as a 32-bit unsigned number, or undefined when `s` is not one. */
export function parseV4(s: string): number | undefined {
  if (!isIPv4(s)) return undefined;
  const [a, b, c, d] = s.split('.').map(Number);
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

/** Eight 16-bit groups, or undefined when `s` is not an IPv6 address (a zone id is ignored). */
export function parseV6(s: string): number[] | undefined {
  let str = s.includes('%') ? s.slice(0, s.indexOf('%')) : s;
  if (!isIPv6(str)) return undefined;
  const lastColon = str.lastIndexOf(':');
  const tail = str.slice(lastColon + 1);
  if (tail.includes('.')) {
    // Dotted IPv4 tail (::ffff:127.0.0.1, 64:ff9b::1.2.3.4): the last two groups.
    const n = parseV4(tail);
    if (n === undefined) return undefined;
    str = `${str.slice(0, lastColon + 1)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = str.split('::');
  const parts = (h: string) => (h === '' ? [] : h.split(':').map((g) => parseInt(g, 16)));
  const head = parts(halves[0]);
  const rest = halves.length > 1 ? parts(halves[1]) : [];
  const zeros = 8 - head.length - rest.length;
  const groups = [...head, ...new Array<number>(halves.length > 1 ? zeros : 0).fill(0), ...rest];
  return groups.length === 8 ? groups : undefined;
}
