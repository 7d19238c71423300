import type { ApiKeyColumns } from './api-key.entity';
import { KeyCache } from './key-cache';

const row = (keyId: string) => ({ keyId }) as ApiKeyColumns;

describe('KeyCache', () => {
  it('reuses a lookup for its lifetime only, and remembers unknown keys too', () => {
    const cache = new KeyCache({ ttlMs: 1000, maxEntries: 10 });
    cache.set('a', row('a'), 0);
    cache.set('ghost', null, 0);
    expect(cache.get('a', 999)?.keyId).toBe('a');
    expect(cache.get('ghost', 999)).toBeNull();
    expect(cache.get('a', 1000)).toBeUndefined();
    expect(cache.get('ghost', 1000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps at most maxEntries, evicting the least recently used', () => {
    const cache = new KeyCache({ ttlMs: 1000, maxEntries: 2 });
    cache.set('a', row('a'), 0);
    cache.set('b', row('b'), 0);
    cache.get('a', 1);
    cache.set('c', row('c'), 2);
    expect(cache.get('b', 3)).toBeUndefined();
    expect(cache.get('a', 3)?.keyId).toBe('a');
    expect(cache.get('c', 3)?.keyId).toBe('c');
  });

  it('forgets a key at once, and caches nothing with a lifetime of 0', () => {
    const cache = new KeyCache({ ttlMs: 1000, maxEntries: 10 });
    cache.set('a', row('a'), 0);
    cache.forget('a');
    expect(cache.get('a', 1)).toBeUndefined();
    const off = new KeyCache({ ttlMs: 0, maxEntries: 10 });
    off.set('a', row('a'), 0);
    expect(off.get('a', 0)).toBeUndefined();
  });
});
