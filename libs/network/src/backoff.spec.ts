import { backoffCapMs, backoffDelayMs, DEFAULT_RETRY_SCHEDULE } from './backoff';

describe('retry schedule', () => {
  const s = { backoffBaseMs: 1000, backoffMaxMs: 10_000, maxAttempts: 5 };

  it('doubles from the base up to the max', () => {
    expect([1, 2, 3, 4, 5, 6, 100, 5000].map((n) => backoffCapMs(n, s))).toEqual([
      1000, 2000, 4000, 8000, 10_000, 10_000, 10_000, 10_000,
    ]);
  });

  it('full jitter spans [0, cap]', () => {
    expect(backoffDelayMs(3, s, () => 0)).toBe(0);
    expect(backoffDelayMs(3, s, () => 0.999999999)).toBe(4000);
    expect(backoffDelayMs(3, s, () => 0.5)).toBe(2000);
  });

  it('equal jitter spans [cap/2, cap], so intervals never shrink before the cap', () => {
    const e = { ...s, jitter: 'equal' as const };
    expect(backoffDelayMs(3, e, () => 0)).toBe(2000);
    expect(backoffDelayMs(3, e, () => 0.999999999)).toBe(4000);
    for (let n = 1; n < 4; n++) {
      // The longest n-th interval is never longer than the shortest (n+1)-th one.
      expect(backoffDelayMs(n, e, () => 0.999999999)).toBeLessThanOrEqual(backoffDelayMs(n + 1, e, () => 0));
    }
  });

  it('the default schedule spans about 1.5 days on average and under 3 days at most', () => {
    const d = DEFAULT_RETRY_SCHEDULE;
    let worst = 0;
    for (let n = 1; n < d.maxAttempts; n++) worst += backoffCapMs(n, d);
    expect(worst / 3_600_000).toBeGreaterThan(60);
    expect(worst / 3_600_000).toBeLessThan(72);
  });
});
