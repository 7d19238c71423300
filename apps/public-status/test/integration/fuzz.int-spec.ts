import { readRouteManifest, runFuzz, type FuzzReport } from '@platform/testing';
import { seedDemo } from '../../src/demo-seed';
import { startStatus, type StatusFixture } from './status-fixture';

/**
 * The gateway's fuzz harness on public-status alone, with the demo business's key for the management
 * routes (the gateway's e2e fuzz has no public-status key yet): hostile input is a 4xx, never a 500.
 */
describe('public-status under the fuzz harness (real PostgreSQL)', () => {
  let s: StatusFixture;
  let report: FuzzReport;

  beforeAll(async () => {
    s = await startStatus('ps_fuzz');
    const seed = (await seedDemo(s.app)) as { apiKey: string; businessId: string };
    report = await runFuzz(
      [
        {
          app: 'public-status',
          routes: readRouteManifest('public-status'),
          urlFor: (route) => `${s.base}${route.path}`,
          credentials: (route) =>
            route.access === 'authenticated'
              ? { 'X-Api-Key': seed.apiKey, 'Business-Id': seed.businessId }
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
    expect(report.requests).toBeGreaterThan(500);
    expect(report.failures).toEqual([]);
  });
});
