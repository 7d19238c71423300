/** What the shared store granted for one bucket's current window (decision 0022). */
export interface Grant {
  /** Tokens this claim obtained (0 when the window's allowance is used up). */
  granted: number;
  /** Tokens handed out for this window so far, to every replica, this claim included. */
  total: number;
  /** The window's start (the store's clock), identifying it across replicas. */
  windowStartMs: number;
  /** Milliseconds left in the window by the store's clock (so replicas' clock skew does not matter). */
  endsInMs: number;
}

/** Where the replicas share each bucket's allowance: PostgreSQL in the gateway, a fake in unit tests. */
export interface LeaseStore {
  claim(bucket: string, want: number, limit: number, windowSec: number): Promise<Grant>;
}

export interface Budget {
  /** Names the count: the registry's budget id plus the client key. */
  bucket: string;
  limit: number;
  windowSec: number;
}

export interface LimitDecision {
  allowed: boolean;
  limit: number;
  windowSec: number;
  /** An estimate across replicas: the window's unclaimed allowance plus this replica's tokens. */
  remaining: number;
  /** Seconds until the window ends. */
  resetSec: number;
  /** Seconds to wait before a retry can succeed (0 when allowed). */
  retryAfterSec: number;
}

export interface LeaseLimiterOptions {
  /** Most tokens one claim takes (a replica holds at most this many of a bucket unused). */
  maxLease: number;
  /** Buckets kept on this replica; beyond it the least recently created go (their tokens are lost). */
  maxKeys: number;
  /** After a failed claim, buckets fall back to local counting and the store is left alone this long. */
  retryStoreAfterMs?: number;
  /** Told once per outage when claims start failing. */
  onStoreError?: (err: unknown) => void;
  now?: () => number;
}

/** One claim takes a twentieth of the allowance (at most maxLease): at most that is stranded per replica. */
export const LEASE_DIVISOR = 20;

export function leaseSize(limit: number, maxLease: number): number {
  return Math.max(1, Math.min(maxLease, Math.floor(limit / LEASE_DIVISOR)));
}

interface Bucket {
  tokens: number;
  /** Local time the window ends; the bucket is forgotten then. */
  expiresAt: number;
  windowStartMs: number;
  /** Tokens handed out for the window by the store (every replica), as of the last claim. */
  total: number;
  /** The store has nothing left for this window. */
  exhausted: boolean;
  /** Counted here alone (the store failed): `limit` per window on this replica. */
  local: boolean;
  claiming?: Promise<void>;
}

/**
 * Per-IP budgets shared by every gateway replica without a database round trip per request. Each
 * bucket's allowance for a fixed window lives in the store; a replica claims a lease of it (a batch of
 * tokens) and spends it locally, claiming the next lease in the background when half is spent. The
 * store never hands out more than `limit` per window, so all replicas together admit at most `limit`
 * per window; a replica's unspent lease is lost when the window ends (a client can be refused while
 * another replica still holds up to one lease of its tokens).
 *
 * When the store fails, buckets fall back to `limit` per window on this replica (N replicas: at most
 * N x limit) until their window ends, and the store is not asked again for `retryStoreAfterMs`.
 */
export class LeaseLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly now: () => number;
  private readonly retryStoreAfterMs: number;
  private storeDownUntil = 0;

  constructor(
    private readonly store: LeaseStore,
    private readonly opts: LeaseLimiterOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.retryStoreAfterMs = opts.retryStoreAfterMs ?? 5000;
  }

  get size(): number {
    return this.buckets.size;
  }

  /**
   * Takes one token. Synchronous while this replica holds tokens for the bucket (the hot path); a
   * promise when it must claim a lease first.
   */
  take(budget: Budget): LimitDecision | Promise<LimitDecision> {
    const b = this.current(budget.bucket);
    if (b && b.tokens > 0) return this.spend(budget, b);
    if (b && (b.exhausted || b.local)) return this.refuse(budget, b);
    // Concurrent first requests share each claim; a waiter that finds the lease spent by the others
    // claims again, as long as the store has tokens left: every claim grants at least one token or
    // marks the window exhausted, so at most `limit` claims can happen (not just two, which refused
    // clients while the store still held their allowance).
    return this.claimThenTake(budget, b, budget.limit + 1);
  }

  private async claimThenTake(budget: Budget, b: Bucket | undefined, tries: number): Promise<LimitDecision> {
    const bucket = b ?? this.create(budget);
    await (bucket.claiming ?? this.claim(budget, bucket));
    // Spend what the claim brought even when its window ended during the round trip (a claim in a
    // window's last milliseconds): the store granted it to a request that arrived inside the window.
    // Looking the bucket up again first dropped it as ended and answered 429 with the tokens in hand.
    if (bucket.tokens > 0) return this.spend(budget, bucket);
    const after = this.current(budget.bucket);
    if (after && after.tokens > 0) return this.spend(budget, after);
    // Nothing here: claim again while the store may have tokens, in this window (concurrent waiters
    // spent the lease first) or in the next one (the window, spent or not, ended while this request
    // waited: refusing it would be a 429 with a one-second Retry-After for a window that is over).
    if (tries > 1 && !after?.exhausted && !after?.local) return this.claimThenTake(budget, after, tries - 1);
    return this.refuse(budget, after ?? bucket);
  }

  private spend(budget: Budget, b: Bucket): LimitDecision {
    b.tokens--;
    const lease = leaseSize(budget.limit, this.opts.maxLease);
    // Claim the next lease before this one runs out, so a busy client never waits for the store.
    if (!b.local && !b.exhausted && !b.claiming && b.tokens <= lease / 2)
      void this.claim(budget, b).catch(() => undefined);
    return {
      allowed: true,
      limit: budget.limit,
      windowSec: budget.windowSec,
      remaining: b.local ? b.tokens : Math.max(0, budget.limit - b.total) + b.tokens,
      resetSec: this.secondsLeft(b),
      retryAfterSec: 0,
    };
  }

  private refuse(budget: Budget, b: Bucket): LimitDecision {
    const resetSec = this.secondsLeft(b);
    return {
      allowed: false,
      limit: budget.limit,
      windowSec: budget.windowSec,
      remaining: 0,
      resetSec,
      retryAfterSec: resetSec,
    };
  }

  private secondsLeft(b: Bucket): number {
    return Math.max(1, Math.ceil((b.expiresAt - this.now()) / 1000));
  }

  /** The bucket of the current window, or undefined (a bucket whose window ended is forgotten). */
  private current(key: string): Bucket | undefined {
    const b = this.buckets.get(key);
    if (b && this.now() >= b.expiresAt && !b.claiming) {
      this.buckets.delete(key);
      return undefined;
    }
    return b;
  }

  private create(budget: Budget): Bucket {
    if (this.buckets.size >= this.opts.maxKeys) this.evict();
    const b: Bucket = {
      tokens: 0,
      expiresAt: Number.POSITIVE_INFINITY,
      windowStartMs: Number.NaN,
      total: 0,
      exhausted: false,
      local: false,
    };
    this.buckets.set(budget.bucket, b);
    return b;
  }

  /** Ended windows first; then the oldest buckets (Map order is creation order). */
  private evict(): void {
    const now = this.now();
    for (const [key, b] of this.buckets) if (now >= b.expiresAt && !b.claiming) this.buckets.delete(key);
    for (const [key, b] of this.buckets) {
      if (this.buckets.size < this.opts.maxKeys) break;
      if (!b.claiming) this.buckets.delete(key);
    }
  }

  private claim(budget: Budget, b: Bucket): Promise<void> {
    const started = this.now();
    if (started < this.storeDownUntil) {
      this.fallBack(budget, b);
      return Promise.resolve();
    }
    const lease = leaseSize(budget.limit, this.opts.maxLease);
    const p = this.store.claim(budget.bucket, lease, budget.limit, budget.windowSec).then(
      (g) => {
        const expiresAt = started + g.endsInMs;
        if (g.windowStartMs !== b.windowStartMs) {
          // A new window (or the first claim): what was left of the old one is gone.
          b.tokens = 0;
          b.windowStartMs = g.windowStartMs;
        }
        b.tokens += g.granted;
        b.total = g.total;
        b.exhausted = g.total >= budget.limit;
        b.local = false;
        b.expiresAt = expiresAt;
      },
      (err: unknown) => {
        if (this.now() >= this.storeDownUntil) this.opts.onStoreError?.(err);
        this.storeDownUntil = this.now() + this.retryStoreAfterMs;
        this.fallBack(budget, b);
      },
    );
    b.claiming = p.finally(() => (b.claiming = undefined));
    return b.claiming;
  }

  /** The store is away: `limit` per window on this replica alone, until the local window ends. */
  private fallBack(budget: Budget, b: Bucket): void {
    if (b.local) return;
    const w = budget.windowSec * 1000;
    const now = this.now();
    b.local = true;
    b.exhausted = false;
    b.tokens = budget.limit;
    b.total = 0;
    b.expiresAt = Math.floor(now / w) * w + w;
  }
}
