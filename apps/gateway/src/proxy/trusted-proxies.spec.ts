import { cidrListProblems, normalizeAddress } from '@platform/network';
import { DEFAULT_TRUSTED_PROXIES, TrustedProxies } from './trusted-proxies';

describe('trusted proxies (CIDR matching)', () => {
  it('matches IPv4 blocks on their prefix, including /0 and /32', () => {
    const t = new TrustedProxies('10.0.0.0/8, 192.168.1.0/24 203.0.113.7');
    expect(t.trusts('10.255.1.2')).toBe(true);
    expect(t.trusts('11.0.0.1')).toBe(false);
    expect(t.trusts('192.168.1.200')).toBe(true);
    expect(t.trusts('192.168.2.1')).toBe(false);
    expect(t.trusts('203.0.113.7')).toBe(true);
    expect(t.trusts('203.0.113.8')).toBe(false);
    expect(new TrustedProxies('0.0.0.0/0').trusts('198.51.100.1')).toBe(true);
  });

  it('matches IPv6 blocks, in any spelling of the address', () => {
    const t = new TrustedProxies('fd00::/8,2001:db8:0:1::/64');
    expect(t.trusts('fd12:3456::1')).toBe(true);
    expect(t.trusts('FD00:0:0:0:0:0:0:1')).toBe(true);
    expect(t.trusts('2001:db8:0:1:ffff::1')).toBe(true);
    expect(t.trusts('2001:db8:0:2::1')).toBe(false);
    expect(t.trusts('fe80::1%eth0')).toBe(false);
    expect(t.trusts('10.0.0.1')).toBe(false);
  });

  it('treats an IPv4-mapped IPv6 peer (a dual-stack socket) as its IPv4 address', () => {
    const t = new TrustedProxies(DEFAULT_TRUSTED_PROXIES);
    expect(t.trusts('::ffff:127.0.0.1')).toBe(true);
    expect(t.trusts('127.8.9.10')).toBe(true);
    expect(t.trusts('::1')).toBe(true);
    expect(t.trusts('::ffff:10.0.0.1')).toBe(false);
    expect(normalizeAddress('::FFFF:10.1.2.3')).toBe('10.1.2.3');
    expect(normalizeAddress('[2001:DB8::1]')).toBe('2001:db8::1');
  });

  it('trusts nothing that is not an address', () => {
    const t = new TrustedProxies('0.0.0.0/0,::/0');
    for (const junk of [
      undefined,
      '',
      'unknown',
      '10.0.0.1, 10.0.0.2',
      '1.2.3.4:80',
      '999.1.1.1',
      '<script>',
    ])
      expect(t.trusts(junk)).toBe(false);
  });

  it('reports every bad entry, and refuses to build from one', () => {
    expect(cidrListProblems(DEFAULT_TRUSTED_PROXIES)).toEqual([]);
    expect(cidrListProblems('10.0.0.0/8, ::1/128, 192.0.2.1')).toEqual([]);
    expect(cidrListProblems('10.0.0.0/33,fd00::/129,example.com,10.0.0.0/x,10.0.0.0/-1')).toEqual([
      '"10.0.0.0/33" has a prefix length outside 0-32',
      '"fd00::/129" has a prefix length outside 0-128',
      '"example.com" is not an IP address or CIDR block',
      '"10.0.0.0/x" has a prefix length outside 0-32',
      '"10.0.0.0/-1" has a prefix length outside 0-32',
    ]);
    expect(() => new TrustedProxies('10.0.0.0/8,nope')).toThrow(/GATEWAY_TRUSTED_PROXIES: "nope"/);
  });
});
