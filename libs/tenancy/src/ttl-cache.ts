/**
 * What the database last said, for a few milliseconds: a per-replica read-through cache bounded in
 * entries (least recently used evicted first) and in time (`ttlMs`). Never a source of truth: a change
 * made elsewhere (another replica, the admin CLI) is seen once the entry expires, one made through this
 * process at once (`forget`). ttlMs 0 turns it off.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();

  constructor(private readonly settings: { ttlMs: number; maxEntries: number }) {}

  /** The cached value, or undefined when the database must be asked. */
  get(key: string, now = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= now) {
      this.entries.delete(key);
      return undefined;
    }
    // Re-inserted: Map order is the eviction order.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, now = Date.now()): void {
    if (this.settings.ttlMs <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, until: now + this.settings.ttlMs });
    while (this.entries.size > this.settings.maxEntries) {
      this.entries.delete(this.entries.keys().next().value as string);
    }
  }

  forget(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
