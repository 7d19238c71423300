import { PeriodicJob } from './periodic-job';

class Counting extends PeriodicJob<number> {
  rounds = 0;
  fail = false;
  release?: () => void;
  constructor(private readonly every: number) {
    super('Counting', 10);
  }
  protected intervalMs(): number {
    return this.every;
  }
  protected work(): Promise<number> {
    this.rounds += 1;
    if (this.fail) return Promise.reject(new Error('boom'));
    return new Promise((resolve) => (this.release = () => resolve(this.rounds)));
  }
}

describe('PeriodicJob', () => {
  afterEach(() => jest.useRealTimers());

  it('shares a round in progress and runs again once it ended', async () => {
    const job = new Counting(0);
    const a = job.runOnce();
    const b = job.runOnce();
    expect(job.rounds).toBe(1);
    job.release?.();
    expect(await a).toBe(1);
    expect(await b).toBe(1);
    const c = job.runOnce();
    job.release?.();
    expect(await c).toBe(2);
  });

  it('never schedules with interval 0, and reschedules after a failed round otherwise', async () => {
    jest.useFakeTimers();
    const off = new Counting(0);
    off.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(1000);
    expect(off.rounds).toBe(0);

    const on = new Counting(100);
    on.fail = true;
    on.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(10); // the first round falls within firstRoundWithinMs
    expect(on.rounds).toBe(1);
    await jest.advanceTimersByTimeAsync(100);
    expect(on.rounds).toBe(2);
    await on.onApplicationShutdown();
    await jest.advanceTimersByTimeAsync(1000);
    expect(on.rounds).toBe(2);
  });

  it('waits at shutdown for the round in progress', async () => {
    const job = new Counting(0);
    void job.runOnce();
    let stopped = false;
    const stop = job.onApplicationShutdown().then(() => (stopped = true));
    await Promise.resolve();
    expect(stopped).toBe(false);
    job.release?.();
    await stop;
    expect(stopped).toBe(true);
  });
});
