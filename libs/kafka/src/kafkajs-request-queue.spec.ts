/*
 * kafkajs's request queue, as installed (scripts/patch-dependencies.js patches it): with nothing
 * pending and no throttle, it scheduled its next check at `-1 - Date.now()` ms, and Node 24 printed
 * `TimeoutNegativeWarning: -1796193628765 is a negative number` at every start of every app (issue 23).
 */
const RequestQueue = require('kafkajs/src/network/requestQueue') as new (opts: Record<string, unknown>) => {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  scheduleCheckPendingRequests(): void;
  maybeThrottle(ms: number): void;
  destroy(): void;
};

const logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
const queue = () =>
  new RequestQueue({
    maxInFlightRequests: null,
    requestTimeout: 30_000,
    enforceRequestTimeout: true,
    clientId: 'test',
    broker: 'localhost:9092',
    logger,
  });

describe('kafkajs request queue timers', () => {
  let delays: number[];
  let spy: jest.SpyInstance;
  beforeEach(() => {
    delays = [];
    const real = global.setTimeout;
    spy = jest.spyOn(global, 'setTimeout').mockImplementation(((_fn: () => void, ms?: number) => {
      delays.push(ms ?? 0);
      return real(() => undefined, 0);
    }) as typeof setTimeout);
  });
  afterEach(() => spy.mockRestore());

  it('schedules no timer at all when nothing is pending and it is not throttled', () => {
    const q = queue();
    q.scheduleCheckPendingRequests();
    expect(delays).toEqual([]);
    expect(q.throttleCheckTimeoutId).toBeNull();
  });

  it('never computes a negative delay: throttled, the check is due when the throttle ends', () => {
    const q = queue();
    q.maybeThrottle(500);
    q.scheduleCheckPendingRequests();
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeGreaterThan(0);
    expect(delays[0]).toBeLessThanOrEqual(500);
  });

  it('still checks soon when requests are pending and it is not throttled', () => {
    const q = queue();
    q.pending.push({});
    q.scheduleCheckPendingRequests();
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeGreaterThan(0);
  });
});
