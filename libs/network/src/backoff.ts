export interface RetrySchedule {
  /** Delay cap before the 2nd attempt; it doubles per attempt. */
  backoffBaseMs: number;
  /** Largest delay between two attempts. */
  backoffMaxMs: number;
  /** Attempts per budget (from enqueue or the last redrive) before a delivery is dead. */
  maxAttempts: number;
  /**
   * `full` (default): uniform in [0, cap], the widest spread after an outage. `equal`: uniform in
   * [cap/2, cap], so each interval is at least as long as the one before until the cap is reached (a
   * spec that promises "retries at an increasing interval", e.g. lending's, needs this).
   */
  jitter?: 'full' | 'equal';
}

/** What a delay needs of a schedule (consumers and the relay count their attempts themselves). */
export type BackoffWindow = Pick<RetrySchedule, 'backoffBaseMs' | 'backoffMaxMs' | 'jitter'>;

/** ~32 h on average, at most ~65 h, over 15 attempts (decision 0018). */
export const DEFAULT_RETRY_SCHEDULE: RetrySchedule = Object.freeze({
  backoffBaseMs: 60_000,
  backoffMaxMs: 12 * 3_600_000,
  maxAttempts: 15,
});

/** The cap of the delay after the n-th failed attempt of a budget (n >= 1): min(max, base * 2^(n-1)). */
export function backoffCapMs(failedAttempts: number, s: BackoffWindow): number {
  const n = Math.max(1, failedAttempts);
  // 2 ** 60 and beyond would only overflow towards Infinity: the cap wins long before.
  return Math.min(s.backoffMaxMs, s.backoffBaseMs * 2 ** Math.min(n - 1, 52));
}

/**
 * Jittered so that replicas retrying after one outage do not come back together: full jitter is
 * uniform in [0, cap]; equal jitter in [cap/2, cap] (the n-th interval is then never shorter than the
 * one before, whose cap was half of this one's, until the maximum caps both).
 */
export function backoffDelayMs(failedAttempts: number, s: BackoffWindow, random = Math.random): number {
  const cap = backoffCapMs(failedAttempts, s);
  if (s.jitter === 'equal') {
    const half = Math.ceil(cap / 2);
    return half + Math.floor(random() * (cap - half + 1));
  }
  return Math.floor(random() * (cap + 1));
}
