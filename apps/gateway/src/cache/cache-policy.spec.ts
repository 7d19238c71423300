import {
  CREDENTIAL_HEADERS,
  bypassReason,
  noneMatch,
  parseCacheControl,
  parseVary,
  primaryKey,
  storability,
  strongEtag,
  varyValues,
} from './cache-policy';

const policy = { maxTtlSec: 60, maxEntryBytes: 1024 };

describe('micro-cache policy: which requests', () => {
  it('serves and fills only anonymous GET/HEAD without a body or a range', () => {
    expect(bypassReason('GET', {})).toBeUndefined();
    expect(bypassReason('HEAD', { 'accept-language': 'ru' })).toBeUndefined();
    expect(bypassReason('GET', { 'content-length': '0' })).toBeUndefined();
    expect(bypassReason('POST', {})).toBe('method');
    expect(bypassReason('OPTIONS', {})).toBe('method');
    expect(bypassReason('GET', { range: 'bytes=0-1' })).toBe('range');
    expect(bypassReason('GET', { 'content-length': '2' })).toBe('body');
    expect(bypassReason('GET', { 'transfer-encoding': 'chunked' })).toBe('body');
    expect(bypassReason('GET', { upgrade: 'websocket' })).toBe('upgrade');
  });

  it.each([...CREDENTIAL_HEADERS])('never with a credential header: %s', (name) => {
    expect(bypassReason('GET', { [name]: 'x' })).toBe('credentials');
    // Even an empty one: the caller meant to authenticate.
    expect(bypassReason('GET', { [name]: '' })).toBe('credentials');
  });

  it('covers every credential header of the platform (Node lower-cases names)', () => {
    for (const header of ['Authorization', 'API_KEY', 'X-Api-Key', 'X-API-Key', 'PlatformSession', 'Cookie'])
      expect(CREDENTIAL_HEADERS).toContain(header.toLowerCase());
  });
});

describe('micro-cache policy: which answers', () => {
  const ok = (headers: Record<string, string | string[]>) => storability(200, headers, policy);

  it('parses Cache-Control directives', () => {
    expect([...parseCacheControl('Public, MAX-AGE="5", no-transform,, max-age=9')]).toEqual([
      ['public', true],
      ['max-age', '5'],
      ['no-transform', true],
    ]);
  });

  it('keeps 200s marked public with a max-age, capped, minus the age they arrived with', () => {
    expect(ok({ 'cache-control': 'public, max-age=5' })).toEqual({
      store: true,
      ttlSec: 5,
      initialAgeSec: 0,
      vary: [],
    });
    expect(ok({ 'cache-control': 'public, max-age=86400' })).toMatchObject({ store: true, ttlSec: 60 });
    expect(ok({ 'cache-control': 'public, max-age=5, s-maxage=20' })).toMatchObject({ ttlSec: 20 });
    expect(ok({ 'cache-control': 'public, max-age=5', age: '2' })).toMatchObject({
      ttlSec: 3,
      initialAgeSec: 2,
    });
    expect(ok({ 'cache-control': 'public, max-age=5', age: '5' })).toEqual({
      store: false,
      reason: 'already stale',
    });
  });

  it.each([
    [200, { 'cache-control': 'max-age=5' }, 'not public'],
    [200, { 'cache-control': 'public, private, max-age=5' }, 'private'],
    [200, { 'cache-control': 'public, no-store, max-age=5' }, 'no-store'],
    [200, { 'cache-control': 'public, no-cache, max-age=5' }, 'no-cache'],
    [200, { 'cache-control': 'public' }, 'no max-age'],
    [200, { 'cache-control': 'public, max-age=0' }, 'no max-age'],
    [200, { 'cache-control': 'public, max-age=-1' }, 'no max-age'],
    [200, { 'cache-control': 'public, max-age=5', 'set-cookie': ['a=b'] }, 'set-cookie'],
    [200, { 'cache-control': 'public, max-age=5', 'content-length': '1025' }, 'too large'],
    [206, { 'cache-control': 'public, max-age=5' }, 'status 206'],
    [404, { 'cache-control': 'public, max-age=5' }, 'status 404'],
    [503, { 'cache-control': 'public, max-age=5' }, 'status 503'],
  ])('refuses status %s with %j (%s)', (status, headers, reason) => {
    expect(storability(status, headers, policy)).toEqual({ store: false, reason });
  });

  it('honours Vary: language headers are always keyed, Accept/Accept-Encoding by value, others refused', () => {
    expect(
      ok({ 'cache-control': 'public, max-age=5', vary: 'Accept-Language, Language-Code' }),
    ).toMatchObject({
      store: true,
      vary: [],
    });
    expect(ok({ 'cache-control': 'public, max-age=5', vary: 'accept-encoding' })).toMatchObject({
      store: true,
      vary: ['accept-encoding'],
    });
    expect(ok({ 'cache-control': 'public, max-age=5', vary: '*' })).toEqual({
      store: false,
      reason: 'vary *',
    });
    expect(ok({ 'cache-control': 'public, max-age=5', vary: 'Accept-Language, Origin, X-Tenant' })).toEqual({
      store: false,
      reason: 'vary origin,x-tenant',
    });
    expect(parseVary('Accept, *')).toEqual(['*']);
  });
});

describe('micro-cache policy: keys and validators', () => {
  it('keys by resolved language, path and query', () => {
    expect(primaryKey('/PublicStatus/Products?x=1', { 'accept-language': 'ru-RU,ru;q=0.9' })).toBe(
      'ru /PublicStatus/Products?x=1',
    );
    expect(primaryKey('/PublicStatus/Products', { 'language-code': 'kk', 'accept-language': 'ru' })).toBe(
      'kk /PublicStatus/Products',
    );
    expect(primaryKey('/PublicStatus/Products', { 'accept-language': 'xx' })).toBe(
      'en /PublicStatus/Products',
    );
    expect(varyValues(['accept-encoding'], { 'accept-encoding': 'gzip,  br' })).toBe(
      'accept-encoding=gzip, br',
    );
    expect(varyValues(['accept'], {})).toBe('accept=');
  });

  it('makes a strong ETag from the bytes, the same on every replica', () => {
    const a = strongEtag(Buffer.from('{"a":1}'));
    expect(a).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(strongEtag(Buffer.from('{"a":1}'))).toBe(a);
    expect(strongEtag(Buffer.from('{"a":2}'))).not.toBe(a);
  });

  it('matches If-None-Match weakly, in lists and with *', () => {
    expect(noneMatch('"abc"', '"abc"')).toBe(true);
    expect(noneMatch('W/"abc"', '"abc"')).toBe(true);
    expect(noneMatch('"abc"', 'W/"abc"')).toBe(true);
    expect(noneMatch('"x", "abc" ,W/"y"', '"abc"')).toBe(true);
    expect(noneMatch('*', '"abc"')).toBe(true);
    expect(noneMatch('"abcd"', '"abc"')).toBe(false);
    expect(noneMatch('abc', '"abc"')).toBe(false);
    expect(noneMatch(undefined, '"abc"')).toBe(false);
  });
});
