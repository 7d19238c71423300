import { Periodic, type PeriodicOptions } from './periodic';

interface Gate {
  rounds: number;
  release: () => void;
}

function gated(over: Partial<PeriodicOptions<number>> = {}): { job: Periodic<number>; gate: Gate } {
  const gate: Gate = { rounds: 0, release: () => undefined };
  const job = new Periodic<number>({
    name: 'Test',
    scope: 'cluster',
    everyMs: 100,
    firstRound: 0,
    work: () => {
      gate.rounds += 1;
      return new Promise((resolve) => (gate.release = () => resolve(gate.rounds)));
    },
    ...over,
  });
  return { job, gate };
}

describe('Periodic', () => {
  afterEach(() => jest.useRealTimers());

  it('runs the next round at once while pauseAfter says 0, else after the interval', async () => {
    jest.useFakeTimers();
    const results = [5, 5, 0];
    let rounds = 0;
    const job = new Periodic<number>({
      name: 'Drain',
      scope: 'cluster',
      everyMs: 1000,
      firstRound: 0,
      work: async () => results[Math.min(rounds++, results.length - 1)],
      pauseAfter: (more) => (more > 0 ? 0 : 1000),
    });
    job.start();
    await jest.advanceTimersByTimeAsync(1);
    expect(rounds).toBe(3); // two full rounds back to back, then an empty one
    await jest.advanceTimersByTimeAsync(998);
    expect(rounds).toBe(3);
    await jest.advanceTimersByTimeAsync(2);
    expect(rounds).toBe(4);
    await job.stop();
  });

  it('backs off after failed rounds and resets after a good one', async () => {
    jest.useFakeTimers();
    let rounds = 0;
    const fail = [true, true, false, true];
    const errors: unknown[] = [];
    const job = new Periodic<void>({
      name: 'Backoff',
      scope: 'process',
      everyMs: 10,
      firstRound: 0,
      work: async () => {
        if (fail[rounds++]) throw new Error('boom');
      },
      pauseAfterFailure: (n) => 100 * 2 ** (n - 1),
      onError: (e) => errors.push(e),
    });
    job.start();
    await jest.advanceTimersByTimeAsync(1);
    expect(rounds).toBe(1);
    await jest.advanceTimersByTimeAsync(100); // after 1st failure: 100 ms
    expect(rounds).toBe(2);
    await jest.advanceTimersByTimeAsync(150);
    expect(rounds).toBe(2); // after 2nd failure: 200 ms
    await jest.advanceTimersByTimeAsync(50);
    expect(rounds).toBe(3); // good round: next one after the interval
    await jest.advanceTimersByTimeAsync(10);
    expect(rounds).toBe(4);
    await jest.advanceTimersByTimeAsync(98);
    expect(rounds).toBe(4); // a new failure streak starts again at 100 ms
    await jest.advanceTimersByTimeAsync(1);
    expect(rounds).toBe(5);
    expect(errors).toHaveLength(3);
    await job.stop();
  });

  it('wake ends a pause, and a wake during a round skips the pause after it', async () => {
    jest.useFakeTimers();
    const { job, gate } = gated({ everyMs: 60_000 });
    job.start();
    await jest.advanceTimersByTimeAsync(0);
    expect(gate.rounds).toBe(1);
    job.wake(); // during round 1
    gate.release();
    await jest.advanceTimersByTimeAsync(0);
    expect(gate.rounds).toBe(2);
    gate.release();
    await jest.advanceTimersByTimeAsync(1000);
    expect(gate.rounds).toBe(2); // pausing now
    job.wake();
    await jest.advanceTimersByTimeAsync(0);
    expect(gate.rounds).toBe(3);
    const stopped = job.stop();
    gate.release();
    await stopped;
  });

  it('never starts with an interval of 0; stop waits for the round and ends the schedule', async () => {
    jest.useFakeTimers();
    const off = gated({ everyMs: 0 });
    off.job.start();
    await jest.advanceTimersByTimeAsync(1000);
    expect(off.gate.rounds).toBe(0);
    expect(off.job.active).toBe(false);

    const { job, gate } = gated();
    job.start();
    await jest.advanceTimersByTimeAsync(0);
    expect(job.active).toBe(true);
    let stopped = false;
    const stop = job.stop().then(() => (stopped = true));
    expect(job.active).toBe(false);
    await jest.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    gate.release();
    await stop;
    expect(stopped).toBe(true);
    await jest.advanceTimersByTimeAsync(1000);
    expect(gate.rounds).toBe(1);
  });

  it('waits at most stopWaitsAtMostMs for a round at stop', async () => {
    jest.useFakeTimers();
    const { job, gate } = gated({ stopWaitsAtMostMs: 5000 });
    job.start();
    await jest.advanceTimersByTimeAsync(0);
    let stopped = false;
    const stop = job.stop().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(4999);
    expect(stopped).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    await stop;
    expect(stopped).toBe(true);
    gate.release();
  });

  it('spreads the first round within the interval', async () => {
    jest.useFakeTimers();
    jest.spyOn(Math, 'random').mockReturnValue(0.5);
    const { job, gate } = gated({ everyMs: 100, firstRound: { spreadWithinMs: 60_000 } });
    job.start();
    await jest.advanceTimersByTimeAsync(49);
    expect(gate.rounds).toBe(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(gate.rounds).toBe(1);
    jest.restoreAllMocks();
    const stop = job.stop();
    gate.release();
    await stop;
  });
});
