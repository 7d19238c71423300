import { backoffDelay, retryPolicy, DEFAULT_RETRY_POLICY } from './retry-policy';

describe('retry policy', () => {
  it('grows exponentially from the base, capped at the maximum, jittered in the upper half', () => {
    const p = { baseMs: 100, maxMs: 1000 };
    expect([1, 2, 3, 4, 5, 30].map((n) => backoffDelay(n, p, () => 0.9999999))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(n, p, () => 0))).toEqual([50, 100, 200, 400, 500]);
  });

  it('layers overrides over the defaults and refuses impossible values', () => {
    expect(retryPolicy()).toEqual(DEFAULT_RETRY_POLICY);
    expect(retryPolicy({ attempts: 2 }, { baseMs: 5, attempts: undefined })).toEqual({
      ...DEFAULT_RETRY_POLICY,
      attempts: 2,
      baseMs: 5,
    });
    expect(() => retryPolicy({ attempts: 0 })).toThrow('attempts');
    expect(() => retryPolicy({ attempts: 1.5 })).toThrow('attempts');
    expect(() => retryPolicy({ baseMs: 0 })).toThrow('baseMs');
    expect(() => retryPolicy({ baseMs: 50, maxMs: 10 })).toThrow('maxMs');
  });
});
