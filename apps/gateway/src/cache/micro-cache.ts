import type { IncomingHttpHeaders } from 'node:http';
import { varyValues } from './cache-policy';

export interface CacheEntry {
  /** Upstream headers to send again (hop-by-hop, length, age, validator and request id removed). */
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The upstream's ETag, or a strong one made from the body. */
  etag: string;
  /** Date.now() when stored. */
  storedAt: number;
  /** Fresh until storedAt + ttlMs. */
  ttlMs: number;
  /** Age the upstream response arrived with, in seconds; added to the Age header. */
  initialAgeSec: number;
  /** The Vary names keyed by value, and this entry's values of them. */
  vary: string[];
  varyValues: string;
}

/** What the request that fetched a key tells the requests that waited for it. */
export type FillOutcome<F> =
  | { kind: 'entry'; entry: CacheEntry }
  | { kind: 'failure'; failure: F }
  /** Not stored (not cacheable, too big, gone): each waiter asks the upstream itself. */
  | { kind: 'pass' };

export interface MicroCacheOptions {
  /** Bytes all entries may take together; the least recently used go first. */
  maxBytes: number;
  maxEntryBytes: number;
  now?: () => number;
}

/** Remembered Vary lists, bounded: forgetting one only costs a miss. */
const MAX_VARY_SPECS = 4096;

const sizeOf = (key: string, e: CacheEntry) =>
  key.length +
  e.body.length +
  e.etag.length +
  Object.entries(e.headers).reduce((n, [k, v]) => n + k.length + String(v).length, 0) +
  // Bookkeeping per entry (objects, map slots), so many tiny entries still count.
  256;

/**
 * The gateway's micro-cache: an LRU over bytes of fresh anonymous GET answers, per replica (decision
 * 0013), and the single-flight table that lets one request per key ask the upstream while the others
 * wait for its answer. Entries are keyed by the primary key (language, path and query) plus the values
 * of the headers the upstream's Vary named; that Vary list is remembered per primary key.
 */
export class MicroCache<F = unknown> {
  private readonly entries = new Map<string, CacheEntry & { size: number }>();
  private readonly varySpecs = new Map<string, string[]>();
  private readonly inflight = new Map<string, Promise<FillOutcome<F>>>();
  private bytes = 0;
  private readonly now: () => number;

  constructor(private readonly opts: MicroCacheOptions) {
    this.now = opts.now ?? Date.now;
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /** The full key for a request and its fresh entry, if any (a hit moves it to the LRU's young end). */
  lookup(primary: string, headers: IncomingHttpHeaders): { key: string; entry?: CacheEntry } {
    const key = `${primary}\n${varyValues(this.varySpecs.get(primary) ?? [], headers)}`;
    const entry = this.entries.get(key);
    if (!entry) return { key };
    if (this.now() >= entry.storedAt + entry.ttlMs) {
      this.remove(key);
      return { key };
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return { key, entry };
  }

  /** Stores an entry under its primary key; false when it is bigger than an entry may be. */
  store(primary: string, entry: CacheEntry): boolean {
    const key = `${primary}\n${entry.varyValues}`;
    const size = sizeOf(key, entry);
    if (entry.body.length > this.opts.maxEntryBytes || size > this.opts.maxBytes) return false;
    this.remove(key);
    this.varySpecs.delete(primary);
    this.varySpecs.set(primary, entry.vary);
    if (this.varySpecs.size > MAX_VARY_SPECS)
      this.varySpecs.delete(this.varySpecs.keys().next().value as string);
    while (this.bytes + size > this.opts.maxBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.remove(oldest.value);
    }
    this.entries.set(key, { ...entry, size });
    this.bytes += size;
    return true;
  }

  /** The fill in progress for a key, if a request is already asking the upstream. */
  pending(key: string): Promise<FillOutcome<F>> | undefined {
    return this.inflight.get(key);
  }

  /** Registers the caller as the one request asking the upstream for the key; call settle once. */
  begin(key: string): (outcome: FillOutcome<F>) => void {
    let resolve!: (o: FillOutcome<F>) => void;
    this.inflight.set(key, new Promise<FillOutcome<F>>((r) => (resolve = r)));
    let settled = false;
    return (outcome) => {
      if (settled) return;
      settled = true;
      this.inflight.delete(key);
      resolve(outcome);
    };
  }

  private remove(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    this.bytes -= e.size;
  }
}
