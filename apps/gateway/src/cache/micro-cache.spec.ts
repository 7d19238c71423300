import type { CacheEntry } from './micro-cache';
import { MicroCache } from './micro-cache';

const entry = (body: string, over: Partial<CacheEntry> = {}): CacheEntry => ({
  headers: { 'content-type': 'application/json' },
  body: Buffer.from(body),
  etag: '"e"',
  storedAt: 0,
  ttlMs: 5000,
  initialAgeSec: 0,
  vary: [],
  varyValues: '',
  ...over,
});

describe('micro-cache store', () => {
  let now = 0;
  const make = (maxBytes = 100_000, maxEntryBytes = 10_000) =>
    new MicroCache({ maxBytes, maxEntryBytes, now: () => now });

  beforeEach(() => {
    now = 1_000_000;
  });

  it('answers a fresh entry and forgets it when it expires', () => {
    const c = make();
    c.store('en /a', entry('A', { storedAt: now }));
    expect(c.lookup('en /a', {}).entry?.body.toString()).toBe('A');
    now += 4999;
    expect(c.lookup('en /a', {}).entry).toBeDefined();
    now += 1;
    expect(c.lookup('en /a', {}).entry).toBeUndefined();
    expect(c.size.entries).toBe(0);
  });

  it('refuses an entry over the entry cap and evicts the least recently used over the total', () => {
    const c = make(3 * (300 + 30), 400);
    expect(c.store('en /big', entry('x'.repeat(401), { storedAt: now }))).toBe(false);
    for (const k of ['a', 'b', 'c']) c.store(`en /${k}`, entry(k.repeat(30), { storedAt: now }));
    expect(c.size.entries).toBe(3);
    c.lookup('en /a', {}); // a is now the most recently used
    c.store('en /d', entry('d'.repeat(30), { storedAt: now }));
    expect(c.lookup('en /b', {}).entry).toBeUndefined();
    expect(['a', 'c', 'd'].map((k) => c.lookup(`en /${k}`, {}).entry !== undefined)).toEqual([
      true,
      true,
      true,
    ]);
    expect(c.size.bytes).toBeLessThanOrEqual(3 * (300 + 30));
  });

  it('keys variants by the values of the Vary names the upstream gave', () => {
    const c = make();
    c.store(
      'en /v',
      entry('gz', { storedAt: now, vary: ['accept-encoding'], varyValues: 'accept-encoding=gzip' }),
    );
    expect(c.lookup('en /v', { 'accept-encoding': 'gzip' }).entry?.body.toString()).toBe('gz');
    const other = c.lookup('en /v', { 'accept-encoding': 'br' });
    expect(other.entry).toBeUndefined();
    expect(other.key).toBe('en /v\naccept-encoding=br');
    c.store(
      'en /v',
      entry('br', { storedAt: now, vary: ['accept-encoding'], varyValues: 'accept-encoding=br' }),
    );
    expect(c.lookup('en /v', { 'accept-encoding': 'br' }).entry?.body.toString()).toBe('br');
    expect(c.lookup('en /v', { 'accept-encoding': 'gzip' }).entry?.body.toString()).toBe('gz');
  });

  it('lets one request per key fill it while the others wait for its outcome', async () => {
    const c = new MicroCache<string>({ maxBytes: 10_000, maxEntryBytes: 1000 });
    expect(c.pending('k')).toBeUndefined();
    const settle = c.begin('k');
    const waiting = [c.pending('k'), c.pending('k')];
    expect(waiting[0]).toBe(waiting[1]);
    settle({ kind: 'failure', failure: 'timeout' });
    settle({ kind: 'pass' }); // only the first outcome counts
    await expect(Promise.all(waiting)).resolves.toEqual([
      { kind: 'failure', failure: 'timeout' },
      { kind: 'failure', failure: 'timeout' },
    ]);
    expect(c.pending('k')).toBeUndefined();
  });
});
