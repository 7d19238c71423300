import { parseV4, parseV6 } from './ip-address';

/**
 * What kind of address an IP is, for the SSRF guard (public-target.ts). Only `public` may receive a
 * webhook or a monitoring probe (`loopback` too under the test-only allowance). `reserved` collects everything that is neither ordinary unicast
 * nor one of the named classes: documentation and benchmarking ranges, 240/4, IETF protocol blocks,
 * Teredo, deprecated IPv4-compatible IPv6, and tunnel forms (6to4, NAT64) that embed a non-public IPv4.
 */
export type AddressClass =
  | 'public'
  | 'private'
  | 'loopback'
  | 'link-local'
  | 'cgnat'
  | 'unique-local'
  | 'unspecified'
  | 'multicast'
  | 'broadcast'
  | 'reserved'
  | 'invalid';

type V4Range = [base: number, prefix: number, cls: AddressClass];

const v4 = (a: number, b: number, c: number, d: number) => ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;

// First match wins; anything not listed is public.
const V4_RANGES: V4Range[] = [
  [v4(255, 255, 255, 255), 32, 'broadcast'],
  [v4(0, 0, 0, 0), 8, 'unspecified'],
  [v4(10, 0, 0, 0), 8, 'private'],
  [v4(100, 64, 0, 0), 10, 'cgnat'],
  [v4(127, 0, 0, 0), 8, 'loopback'],
  // Cloud metadata services (169.254.169.254, 169.254.170.2) live here.
  [v4(169, 254, 0, 0), 16, 'link-local'],
  [v4(172, 16, 0, 0), 12, 'private'],
  [v4(192, 0, 0, 0), 24, 'reserved'],
  [v4(192, 0, 2, 0), 24, 'reserved'],
  [v4(192, 88, 99, 0), 24, 'reserved'],
  [v4(192, 168, 0, 0), 16, 'private'],
  [v4(198, 18, 0, 0), 15, 'reserved'],
  [v4(198, 51, 100, 0), 24, 'reserved'],
  [v4(203, 0, 113, 0), 24, 'reserved'],
  [v4(224, 0, 0, 0), 4, 'multicast'],
  [v4(240, 0, 0, 0), 4, 'reserved'],
];

function classifyV4(n: number): AddressClass {
  for (const [base, prefix, cls] of V4_RANGES) {
    const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
    if ((n & mask) >>> 0 === base) return cls;
  }
  return 'public';
}

const embeddedV4 = (hi: number, lo: number) => ((hi << 16) | lo) >>> 0;

function classifyV6(g: number[]): AddressClass {
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroUpTo(8)) return 'unspecified';
  if (zeroUpTo(7) && g[7] === 1) return 'loopback';
  // IPv4-mapped (::ffff:a.b.c.d): the socket talks IPv4 to the embedded address, so it is that address.
  if (zeroUpTo(5) && g[5] === 0xffff) return classifyV4(embeddedV4(g[6], g[7]));
  // IPv4-compatible (::a.b.c.d, deprecated) and SIIT (::ffff:0:a.b.c.d): never a legitimate target.
  if (zeroUpTo(6) || (zeroUpTo(4) && g[4] === 0xffff && g[5] === 0)) return 'reserved';
  // NAT64 (64:ff9b::/96) and 6to4 (2002::/16) reach the embedded IPv4: public only if it is.
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) {
    return classifyV4(embeddedV4(g[6], g[7])) === 'public' ? 'public' : 'reserved';
  }
  if (g[0] === 0x2002) return classifyV4(embeddedV4(g[1], g[2])) === 'public' ? 'public' : 'reserved';
  if ((g[0] & 0xff00) === 0xff00) return 'multicast';
  if ((g[0] & 0xffc0) === 0xfe80) return 'link-local';
  // fec0::/10, deprecated site-local: private in practice.
  if ((g[0] & 0xffc0) === 0xfec0) return 'private';
  if ((g[0] & 0xfe00) === 0xfc00) return 'unique-local';
  // 2001::/23 (IETF protocol assignments, Teredo 2001::/32 included) and 2001:db8::/32 (documentation).
  if (g[0] === 0x2001 && (g[1] < 0x200 || g[1] === 0xdb8)) return 'reserved';
  // Global unicast is 2000::/3; everything else (64:ff9b:1::/48, 100::/64, unassigned) is not a target.
  return (g[0] & 0xe000) === 0x2000 ? 'public' : 'reserved';
}

/** Classifies an IPv4 or IPv6 address literal (no brackets); anything else is `invalid`. */
export function classifyAddress(address: string): AddressClass {
  const n = parseV4(address);
  if (n !== undefined) return classifyV4(n);
  const g = parseV6(address);
  return g ? classifyV6(g) : 'invalid';
}
