import { classifyAddress, type AddressClass } from './address-class';
import { parseV6 } from './ip-address';

const cases: [string, AddressClass][] = [
  // IPv4
  ['8.8.8.8', 'public'],
  ['93.184.215.14', 'public'],
  ['1.1.1.1', 'public'],
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.254', 'private'],
  ['172.15.255.255', 'public'],
  ['172.32.0.1', 'public'],
  ['192.168.1.1', 'private'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['169.254.169.254', 'link-local'],
  ['169.254.0.1', 'link-local'],
  ['100.64.0.1', 'cgnat'],
  ['100.127.255.255', 'cgnat'],
  ['100.128.0.1', 'public'],
  ['100.63.255.255', 'public'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['255.255.255.255', 'broadcast'],
  ['240.0.0.1', 'reserved'],
  ['192.0.2.1', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['203.0.113.9', 'reserved'],
  // IPv6
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['febf::1', 'link-local'],
  ['fec0::1', 'private'],
  ['fc00::1', 'unique-local'],
  ['fd00:ec2::254', 'unique-local'],
  ['ff02::1', 'multicast'],
  ['2001:db8::1', 'reserved'],
  ['2001::1', 'reserved'],
  ['2606:4700:4700::1111', 'public'],
  ['2a00:1450:4001:82b::200e', 'public'],
  ['100::1', 'reserved'],
  // IPv4-mapped forms take the class of the embedded address.
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::ffff:169.254.169.254', 'link-local'],
  ['::ffff:a9fe:a9fe', 'link-local'],
  ['::ffff:10.1.2.3', 'private'],
  ['::ffff:192.168.0.1', 'private'],
  ['::ffff:100.64.1.1', 'cgnat'],
  ['::ffff:0.0.0.0', 'unspecified'],
  ['::ffff:8.8.8.8', 'public'],
  ['0:0:0:0:0:ffff:7f00:1', 'loopback'],
  // Deprecated and tunnel forms that embed a non-public IPv4 are never targets.
  ['::127.0.0.1', 'reserved'],
  ['::ffff:0:127.0.0.1', 'reserved'],
  ['64:ff9b::127.0.0.1', 'reserved'],
  ['64:ff9b::a9fe:a9fe', 'reserved'],
  ['64:ff9b::8.8.8.8', 'public'],
  ['2002:7f00:1::1', 'reserved'],
  ['2002:c0a8:101::1', 'reserved'],
  ['2002:808:808::1', 'public'],
  ['64:ff9b:1::1', 'reserved'],
  // Not addresses
  ['example.com', 'invalid'],
  ['', 'invalid'],
  ['127.1', 'invalid'],
  ['1.2.3.256', 'invalid'],
];

describe('classifyAddress', () => {
  it.each(cases)('%s is %s', (address, cls) => {
    expect(classifyAddress(address)).toBe(cls);
  });

  it('expands IPv6 with a dotted tail', () => {
    expect(parseV6('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x102, 0x304]);
    expect(parseV6('1::')).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
  });
});
