import {
  assertPublicUrl,
  resolvePublicTarget,
  publicTargetPolicy,
  PublicTargetError,
  PublicTargetRefusal,
  type HostResolver,
} from './public-target';

const dns =
  (answers: Record<string, string[]>): HostResolver =>
  async (host) =>
    (answers[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

async function refusal(p: Promise<unknown>): Promise<PublicTargetRefusal> {
  try {
    await p;
  } catch (err) {
    if (err instanceof PublicTargetError) return err.reason;
    throw err;
  }
  throw new Error('not refused');
}

describe('SSRF guard', () => {
  const loopback = publicTargetPolicy('loopback', 'test');
  const resolve = dns({
    'hooks.example.com': ['93.184.215.14', '2606:4700:4700::1111'],
    'mixed.example.com': ['93.184.215.14', '10.0.0.5'],
    'meta.example.com': ['169.254.169.254'],
    'v6private.example.com': ['fd00::1'],
    'mapped.example.com': ['::ffff:127.0.0.1'],
    'local.example.com': ['127.0.0.1'],
  });

  it('accepts https to a name whose every address is public, and pins the first', async () => {
    const t = await resolvePublicTarget('https://hooks.example.com/in?x=1', { resolve });
    expect(t.address).toBe('93.184.215.14');
    expect(t.port).toBe(443);
    expect(t.hostname).toBe('hooks.example.com');
  });

  it.each([
    ['http://hooks.example.com/', PublicTargetRefusal.INSECURE_SCHEME],
    ['ftp://hooks.example.com/', PublicTargetRefusal.INSECURE_SCHEME],
    ['file:///etc/passwd', PublicTargetRefusal.INSECURE_SCHEME],
    ['gopher://hooks.example.com/', PublicTargetRefusal.INSECURE_SCHEME],
    ['not a url', PublicTargetRefusal.INVALID_URL],
    ['https://user:pw@hooks.example.com/', PublicTargetRefusal.INVALID_URL],
    [`https://hooks.example.com/${'a'.repeat(2100)}`, PublicTargetRefusal.INVALID_URL],
    ['https://mixed.example.com/', PublicTargetRefusal.PRIVATE_ADDRESS],
    ['https://meta.example.com/', PublicTargetRefusal.PRIVATE_ADDRESS],
    ['https://v6private.example.com/', PublicTargetRefusal.PRIVATE_ADDRESS],
    ['https://mapped.example.com/', PublicTargetRefusal.PRIVATE_ADDRESS],
    ['https://local.example.com/', PublicTargetRefusal.PRIVATE_ADDRESS],
    ['https://nowhere.example.com/', PublicTargetRefusal.UNRESOLVABLE],
    ['https://127.0.0.1/', PublicTargetRefusal.PRIVATE_ADDRESS],
    ['https://2130706433/', PublicTargetRefusal.PRIVATE_ADDRESS],
    ['https://0x7f.1/', PublicTargetRefusal.PRIVATE_ADDRESS],
    ['https://017700000001/', PublicTargetRefusal.PRIVATE_ADDRESS],
    ['https://169.254.169.254/latest/meta-data/', PublicTargetRefusal.PRIVATE_ADDRESS],
    ['https://10.0.0.1/', PublicTargetRefusal.PRIVATE_ADDRESS],
    ['https://172.16.5.4/', PublicTargetRefusal.PRIVATE_ADDRESS],
    ['https://192.168.0.1/', PublicTargetRefusal.PRIVATE_ADDRESS],
    ['https://100.64.0.1/', PublicTargetRefusal.PRIVATE_ADDRESS],
    ['https://0.0.0.0/', PublicTargetRefusal.PRIVATE_ADDRESS],
    ['https://255.255.255.255/', PublicTargetRefusal.PRIVATE_ADDRESS],
    ['https://224.0.0.1/', PublicTargetRefusal.PRIVATE_ADDRESS],
    ['https://[::1]/', PublicTargetRefusal.PRIVATE_ADDRESS],
    ['https://[::]/', PublicTargetRefusal.PRIVATE_ADDRESS],
    ['https://[fe80::1]/', PublicTargetRefusal.PRIVATE_ADDRESS],
    ['https://[fc00::1]/', PublicTargetRefusal.PRIVATE_ADDRESS],
    ['https://[ff02::1]/', PublicTargetRefusal.PRIVATE_ADDRESS],
    ['https://[::ffff:127.0.0.1]/', PublicTargetRefusal.PRIVATE_ADDRESS],
    ['https://[::ffff:a9fe:a9fe]/', PublicTargetRefusal.PRIVATE_ADDRESS],
    ['https://[::ffff:10.0.0.1]/', PublicTargetRefusal.PRIVATE_ADDRESS],
  ])('refuses %s (%s)', async (url, reason) => {
    expect(await refusal(resolvePublicTarget(url, { resolve }))).toBe(reason);
  });

  it('refuses localhost through the real resolver', async () => {
    expect(await refusal(assertPublicUrl('https://localhost:8443/hook'))).toBe(
      PublicTargetRefusal.PRIVATE_ADDRESS,
    );
  });

  it('the loopback allowance admits loopback (http too) and nothing else private', async () => {
    expect(await assertPublicUrl('http://127.0.0.1:8080/hook', { policy: loopback })).toBe(
      'http://127.0.0.1:8080/hook',
    );
    expect(await assertPublicUrl('https://local.example.com/', { policy: loopback, resolve })).toBe(
      'https://local.example.com/',
    );
    expect(await refusal(assertPublicUrl('http://10.0.0.1/', { policy: loopback }))).toBe(
      PublicTargetRefusal.PRIVATE_ADDRESS,
    );
    expect(await refusal(assertPublicUrl('https://meta.example.com/', { policy: loopback, resolve }))).toBe(
      PublicTargetRefusal.PRIVATE_ADDRESS,
    );
    // Plain http stays refused to public hosts even with the allowance.
    expect(await refusal(assertPublicUrl('http://hooks.example.com/', { policy: loopback, resolve }))).toBe(
      PublicTargetRefusal.INSECURE_SCHEME,
    );
  });

  it('the allowance is off by default, validated, and refused in production', () => {
    expect(publicTargetPolicy(undefined, 'test').allowPrivateTargets).toBe('off');
    expect(publicTargetPolicy('', 'production').allowPrivateTargets).toBe('off');
    expect(() => publicTargetPolicy('loopback', 'production')).toThrow(/production/);
    expect(() => publicTargetPolicy('all', 'test')).toThrow(/off.*loopback/);
  });

  it('the allowance is refused at use when the process runs in production', async () => {
    const policy = publicTargetPolicy('loopback', 'test');
    const saved = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await expect(assertPublicUrl('http://127.0.0.1/', { policy })).rejects.toThrow(/production/);
    } finally {
      process.env.NODE_ENV = saved;
    }
  });
});
