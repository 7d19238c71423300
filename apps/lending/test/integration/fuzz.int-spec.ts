import { readRouteManifest, runFuzz, type FuzzReport } from '@platform/testing';
import { startLending, type LendingFixture } from './lending-fixture';

/**
 * The fuzz harness on lending alone, every route of its manifest (docs/routes/lending.json) with a key
 * holding every scope: hostile input (NUL bytes, deep JSON, huge numbers, impossible dates, invalid
 * UTF-8, `__proto__` keys, oversized headers) is a 4xx in the envelope, never a 500.
 */
describe('lending under the fuzz harness (real PostgreSQL)', () => {
  let s: LendingFixture;
  let report: FuzzReport;

  beforeAll(async () => {
    s = await startLending('lending_fuzz');
    const key = await s.organization('bank-fuzz');
    report = await runFuzz(
      [
        {
          app: 'lending',
          routes: readRouteManifest('lending'),
          urlFor: (route) => `${s.base}${route.path}`,
          // A key per route, so money operations get past their Idempotency-Key to the body checks.
          credentials: (route) =>
            route.access === 'authenticated'
              ? { ...key, 'Idempotency-Key': `fuzz ${route.method} ${route.path}`.replace(/\W+/g, '-') }
              : undefined,
          readyUrl: `${s.base}/health/live`,
        },
      ],
      [s.base],
      { seed: 20261123, randomPerRoute: 30, concurrency: 8, timeoutMs: 15000 },
    );
  }, 300_000);

  afterAll(async () => {
    await s?.close();
  });

  it('answers every generated request without a 5xx or a broken envelope', () => {
    expect(report.requests).toBeGreaterThan(50);
    expect(report.failures).toEqual([]);
  });
});
