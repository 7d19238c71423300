import { ServiceHealthReported, type ServiceHealthReportedV1 } from '@platform/messaging';
import { healthWindow, reportOf } from './health-state';

describe('health state', () => {
  it('turns a report into a row: ready from status, failing checks from the checks that are down', () => {
    const report = reportOf({
      service: 'lending',
      instance: 'lending-1',
      status: 'down',
      checks: {
        database: { status: 'down', latencyMs: 2500, error: 'timed out after 2500 ms' },
        broker: { status: 'up', latencyMs: 3 },
        cache: { status: 'down', latencyMs: 1 },
      },
      reportedAt: '2026-11-20T09:15:00.000Z',
    });
    expect(report).toMatchObject({ ready: false, failingChecks: ['cache', 'database'] });
    expect(reportOf(ServiceHealthReported.example as ServiceHealthReportedV1)).toMatchObject({
      ready: true,
      failingChecks: [],
    });
  });

  it('sizes the silence window in heartbeats, with the platform default when reporting is off here', () => {
    expect(healthWindow(15000, 3)).toEqual({ heartbeatMs: 15000, silenceMs: 45000 });
    expect(healthWindow(0, 3)).toEqual({ heartbeatMs: 15000, silenceMs: 45000 });
  });
});
