import { PgSlidingWindowLimiter, type SqlRunner } from './rate-limiter';

/** A runner answering the limiter's one statement with given window counts (the SQL is not under test). */
const runner = (cur: number, prev: number): SqlRunner => ({
  query: () => Promise.resolve([{ cur, prev }]),
});

describe('PgSlidingWindowLimiter Retry-After', () => {
  const W = 300;
  const start = Date.UTC(2026, 11, 4, 12, 0, 0) - (Date.UTC(2026, 11, 4, 12, 0, 0) % (W * 1000));

  it('when the current window alone is over the limit, waits past its end until its hits weigh little enough', async () => {
    const now = start + 10_000;
    const refused = await new PgSlidingWindowLimiter(runner(11, 0), 'calendar', 10, W).hit('b', now);
    expect(refused.allowed).toBe(false);
    const later = now + refused.retryAfterSec * 1000;
    // Then those 11 hits are the previous window's, and one more attempt is the current one's.
    const atRetry = await new PgSlidingWindowLimiter(runner(1, 11), 'calendar', 10, W).hit('b', later);
    expect(atRetry.allowed).toBe(true);
    const before = await new PgSlidingWindowLimiter(runner(1, 11), 'calendar', 10, W).hit('b', later - 5_000);
    expect(before.allowed).toBe(false);
  });
});
