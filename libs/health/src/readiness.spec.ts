import { Readiness, type ReadinessReport } from './readiness';

describe('Readiness during shutdown', () => {
  it('answers down from the first shutdown hook on, without running the checks or telling the listeners', async () => {
    let ran = 0;
    const readiness = new Readiness('calendar', [
      {
        name: 'database',
        run: async () => {
          ran++;
        },
      },
    ]);
    const heard: ReadinessReport[] = [];
    readiness.onEvaluated((r) => heard.push(r));

    expect(await readiness.evaluate()).toMatchObject({
      status: 'up',
      checks: { database: { status: 'up' } },
    });
    expect(ran).toBe(1);
    expect(heard).toHaveLength(1);

    readiness.onModuleDestroy();
    expect(await readiness.evaluate()).toEqual({
      service: 'calendar',
      status: 'down',
      checks: { shutdown: { status: 'down', latencyMs: 0, error: 'shutting down' } },
    });
    // The pools are about to close: no check runs. The health reporter keeps its last report: a replica
    // going away is not an outage of the service.
    expect(ran).toBe(1);
    expect(heard).toHaveLength(1);
  });
});
