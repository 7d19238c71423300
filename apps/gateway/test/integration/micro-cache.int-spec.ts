import type { INestApplication } from '@nestjs/common';
import { listen } from '@platform/testing';
import { createGatewayApp } from '../../src/bootstrap';
import { TestUpstream, call, upstreamEnv, type Answer } from './test-upstream';

const PUBLIC_5 = `cc=${encodeURIComponent('public, max-age=5')}`;
let unique = 0;
/** A fresh URL per test, so entries of one test never answer another. */
const path = (query = PUBLIC_5) => `/PublicStatus/Products?t=${++unique}&${query}`;
const n = (a: Answer) => (a.json as { n?: number }).n;

/** The micro-cache for anonymous GETs, against a real upstream that counts its requests. */
describe('gateway micro-cache (real HTTP)', () => {
  let gateway: INestApplication;
  let base: string;
  const upstream = new TestUpstream();
  const hits = (url: string) => upstream.seen.filter((s) => s.url === url).length;

  beforeAll(async () => {
    await upstream.start();
    gateway = await createGatewayApp(
      {
        NODE_ENV: 'test',
        GATEWAY_RATE_LIMIT: 'off',
        ...upstreamEnv(upstream.url),
        GATEWAY_UPSTREAM_TIMEOUT_MS: '400',
        GATEWAY_CACHE_MAX_ENTRY_BYTES: '4096',
        GATEWAY_CACHE_MAX_TTL_SEC: '30',
      },
      false,
    );
    base = await listen(gateway);
  });

  afterAll(async () => {
    await gateway?.close();
    await upstream.stop();
  });

  it('answers MISS, then HIT with Age from memory, until max-age runs out', async () => {
    const url = path(`cc=${encodeURIComponent('public, max-age=2')}`);
    const first = await call(`${base}${url}`);
    expect(first.status).toBe(200);
    expect(first.headers).toMatchObject({
      'x-cache': 'MISS',
      age: '0',
      'cache-control': 'public, max-age=2',
    });
    expect(first.headers.etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    await new Promise((r) => setTimeout(r, 1100));
    const second = await call(`${base}${url}`);
    expect(second.headers).toMatchObject({ 'x-cache': 'HIT', age: '1', etag: first.headers.etag });
    expect(second.text).toBe(first.text);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(second.headers['x-content-type-options']).toBe('nosniff');
    expect(hits(url)).toBe(1);
    await new Promise((r) => setTimeout(r, 1000));
    const third = await call(`${base}${url}`);
    expect(third.headers['x-cache']).toBe('MISS');
    expect(n(third)).not.toBe(n(first));
    expect(hits(url)).toBe(2);
  });

  it('coalesces concurrent misses into one upstream request', async () => {
    const url = path(`${PUBLIC_5}&delay=300`);
    const answers = await Promise.all(Array.from({ length: 25 }, () => call(`${base}${url}`)));
    expect(hits(url)).toBe(1);
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(answers.map((a) => a.status).every((s) => s === 200)).toBe(true);
    const labels = answers.map((a) => a.headers['x-cache']).sort();
    expect(labels.filter((l) => l === 'MISS')).toHaveLength(1);
    expect(labels.filter((l) => l === 'HIT')).toHaveLength(24);
  });

  it('gives every coalesced caller the failure of the one request when the upstream stays silent', async () => {
    const url = path(`${PUBLIC_5}&delay=never`);
    const calendar = url.replace('/PublicStatus/Products', '/Calendar/feed');
    const answers = await Promise.all(Array.from({ length: 5 }, () => call(`${base}${calendar}`)));
    expect(answers.map((a) => a.status)).toEqual([504, 504, 504, 504, 504]);
    expect(answers.map((a) => (a.json.value as { reason: string }).reason)).toEqual(
      Array(5).fill('UPSTREAM_TIMEOUT'),
    );
    expect(hits(calendar)).toBe(1);
  });

  it('keeps nothing from an upstream that drops the connection mid-answer, and says 502', async () => {
    const url = path(`${PUBLIC_5}&drop=1&delay=100`);
    const answers = await Promise.all(Array.from({ length: 3 }, () => call(`${base}${url}`)));
    expect(answers.map((a) => a.status)).toEqual([502, 502, 502]);
    expect(answers[0].json.value).toMatchObject({ reason: 'UPSTREAM_UNAVAILABLE' });
    expect(hits(url)).toBe(1);
    await call(`${base}${url}`).catch(() => undefined);
    expect(hits(url)).toBe(2);
  });

  it('answers If-None-Match with 304, with its own ETag or the upstream’s', async () => {
    const url = path();
    const first = await call(`${base}${url}`);
    const etag = String(first.headers.etag);
    const revalidated = await call(`${base}${url}`, { headers: { 'if-none-match': `"other", W/${etag}` } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.text).toBe('');
    expect(revalidated.headers).toMatchObject({
      etag,
      'x-cache': 'HIT',
      'cache-control': 'public, max-age=5',
    });
    expect(revalidated.headers['content-type']).toBeUndefined();
    expect((await call(`${base}${url}`, { headers: { 'if-none-match': '"stale"' } })).status).toBe(200);

    // The upstream's own validator is kept; a first request that already holds it gets 304 on the miss.
    const tagged = path(`${PUBLIC_5}&etag=${encodeURIComponent('"v7"')}`);
    const miss = await call(`${base}${tagged}`, { headers: { 'if-none-match': '"v7"' } });
    expect(miss.status).toBe(304);
    expect(miss.headers).toMatchObject({ etag: '"v7"', 'x-cache': 'MISS' });
    // ... while the upstream itself was asked for the full answer, without the condition.
    expect(upstream.last().headers['if-none-match']).toBeUndefined();
    expect(hits(url) + hits(tagged)).toBe(2);
  });

  it.each([
    ['Authorization', 'Bearer x'],
    ['API_KEY', 'k'],
    ['X-Api-Key', 'k'],
    ['X-API-Key', 'k'],
    ['PlatformSession', 'jwt'],
    ['Cookie', 'a=b'],
  ])('never answers from, nor fills, the cache for a request with %s', async (header, value) => {
    const url = path();
    const anonymous = await call(`${base}${url}`);
    const withCredential = [
      await call(`${base}${url}`, { headers: { [header]: value } }),
      await call(`${base}${url}`, { headers: { [header]: value } }),
    ];
    for (const res of withCredential) {
      expect(res.headers['x-cache']).toBeUndefined();
      expect(n(res)).not.toBe(n(anonymous));
    }
    expect(hits(url)).toBe(3);
    expect((await call(`${base}${url}`)).headers['x-cache']).toBe('HIT');
  });

  it.each([
    ['private', `cc=${encodeURIComponent('private, max-age=5')}`],
    ['no-store', `cc=${encodeURIComponent('public, no-store, max-age=5')}`],
    ['no max-age', 'cc=public'],
    ['no Cache-Control', 'x=1'],
    ['Set-Cookie', `${PUBLIC_5}&cookie=1`],
    ['a 404', `${PUBLIC_5}&status=404`],
    ['Vary: *', `${PUBLIC_5}&vary=*`],
    ['Vary on a header it does not key on', `${PUBLIC_5}&vary=Origin`],
    ['a body over the entry cap', `${PUBLIC_5}&size=5000`],
  ])('does not keep an answer with %s', async (_label, query) => {
    const url = path(query);
    const a = await call(`${base}${url}`);
    const b = await call(`${base}${url}`);
    expect(hits(url)).toBe(2);
    expect(b.headers['x-cache']).toBe('MISS');
    if (query.includes('size=5000')) expect(a.text.length).toBe(5000);
  });

  it('keys by language (resolved) and by the values of the headers Vary names', async () => {
    const url = path(`${PUBLIC_5}&vary=${encodeURIComponent('Accept-Language, Accept-Encoding')}`);
    const ru = await call(`${base}${url}`, {
      headers: { 'accept-language': 'ru-RU,ru;q=0.9', 'accept-encoding': 'gzip' },
    });
    const ruAgain = await call(`${base}${url}`, {
      headers: { 'Language-Code': 'ru', 'accept-encoding': 'gzip' },
    });
    const en = await call(`${base}${url}`, {
      headers: { 'accept-language': 'en', 'accept-encoding': 'gzip' },
    });
    const ruBr = await call(`${base}${url}`, {
      headers: { 'accept-language': 'ru', 'accept-encoding': 'br' },
    });
    expect([ru, ruAgain, en, ruBr].map((a) => a.headers['x-cache'])).toEqual(['MISS', 'HIT', 'MISS', 'MISS']);
    expect(n(ruAgain)).toBe(n(ru));
    expect(hits(url)).toBe(3);
    expect(ru.headers.vary).toBe('Accept-Language, Accept-Encoding');
  });

  it('answers HEAD from a GET’s entry', async () => {
    const url = path();
    const get = await call(`${base}${url}`);
    const head = await call(`${base}${url}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers).toMatchObject({ 'x-cache': 'HIT', 'content-length': String(get.text.length) });
    expect(head.text).toBe('');
    expect(hits(url)).toBe(1);
  });
});
