import { forwarding } from './forwarded-headers';
import { TrustedProxies } from './trusted-proxies';

describe('X-Forwarded-* from trusted and untrusted peers', () => {
  const trusted = new TrustedProxies('10.0.0.0/8,::1');

  it('replaces an untrusted peer’s X-Forwarded-For with the peer, never appending to it', () => {
    const f = forwarding(
      {
        host: 'api.example.com',
        'x-forwarded-for': '1.2.3.4, 10.0.0.9',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'evil.example',
        'x-real-ip': '1.2.3.4',
      },
      '198.51.100.20',
      false,
      trusted,
    );
    expect(f.set).toEqual({
      'x-forwarded-for': '198.51.100.20',
      'x-forwarded-proto': 'http',
      'x-forwarded-host': 'api.example.com',
      'x-real-ip': '198.51.100.20',
    });
    expect(f.drop).toEqual(expect.arrayContaining(['forwarded', 'x-forwarded-port', 'true-client-ip']));
  });

  it('keeps a trusted proxy’s chain, appends the proxy, and finds the client right to left', () => {
    const f = forwarding(
      {
        host: 'gateway:3000',
        'x-forwarded-for': '203.0.113.5, 10.1.1.1',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'api.example.com',
      },
      '::ffff:10.2.2.2',
      false,
      trusted,
    );
    expect(f.set).toEqual({
      'x-forwarded-for': '203.0.113.5, 10.1.1.1, 10.2.2.2',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'api.example.com',
      'x-real-ip': '203.0.113.5',
    });
    expect(f.drop).toEqual([]);
  });

  it('does not let a client fake its address through a trusted proxy that appends', () => {
    // The client sent "X-Forwarded-For: 10.9.9.9" (a trusted-looking address) to the ingress, which
    // appended the client's real address: the rightmost untrusted entry is the client.
    const f = forwarding({ 'x-forwarded-for': '10.9.9.9, 198.51.100.7' }, '10.0.0.1', false, trusted);
    expect(f.set['x-real-ip']).toBe('198.51.100.7');
    expect(f.set['x-forwarded-for']).toBe('10.9.9.9, 198.51.100.7, 10.0.0.1');
  });

  it('drops junk from a trusted chain and bad proto/host values, using its own view instead', () => {
    const f = forwarding(
      {
        host: 'gw.internal',
        'x-forwarded-for': 'unknown, 203.0.113.9, <script>',
        'x-forwarded-proto': 'gopher',
        'x-forwarded-host': 'a b/c',
      },
      '::1',
      true,
      trusted,
    );
    expect(f.set).toEqual({
      'x-forwarded-for': '203.0.113.9, ::1',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'gw.internal',
      'x-real-ip': '203.0.113.9',
    });
  });

  it('leaves the host out rather than forwarding a malformed one', () => {
    const f = forwarding({ host: 'bad host\r\nx: y' }, '198.51.100.1', false, trusted);
    expect(f.set['x-forwarded-host']).toBeUndefined();
  });
});
