import { BatchWriter } from './batch-writer';

class Recorder extends BatchWriter<number> {
  batches: number[][] = [];
  /** What the next writes do: throw, or give back the lines they could not store. */
  outcomes: ('ok' | 'throw' | 'odd-fail')[] = [];

  constructor(opts: { flushAt?: number; maxPending?: number } = {}) {
    super({ what: 'test log', context: 'TestLog', flushEveryMs: 100, ...opts });
    this.logger.warn = () => undefined;
  }

  protected async write(lines: number[]): Promise<number[] | void> {
    const outcome = this.outcomes.shift() ?? 'ok';
    if (outcome === 'throw') throw new Error('database away');
    this.batches.push(lines.filter((l) => outcome === 'ok' || l % 2 === 0));
    if (outcome === 'odd-fail') return lines.filter((l) => l % 2 === 1);
  }
}

describe('BatchWriter', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('writes the lines of a period together, and at once when flushAt wait', async () => {
    const w = new Recorder({ flushAt: 3 });
    w.record(1);
    w.record(2);
    expect(w.batches).toEqual([]);
    await jest.advanceTimersByTimeAsync(100);
    expect(w.batches).toEqual([[1, 2]]);
    [3, 4, 5].forEach((n) => w.record(n));
    await w.flush();
    expect(w.batches).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
  });

  it('keeps the lines of a failed write, and only the unwritten ones of a partial write, in order', async () => {
    const w = new Recorder();
    w.outcomes = ['throw', 'odd-fail'];
    w.record(1);
    w.record(2);
    await w.flush();
    expect(w.batches).toEqual([]);
    w.record(3);
    w.record(4);
    await w.flush();
    expect(w.batches).toEqual([[2, 4]]);
    await jest.advanceTimersByTimeAsync(1000);
    expect(w.batches).toEqual([
      [2, 4],
      [1, 3],
    ]);
  });

  it('drops the oldest lines beyond maxPending, and flushes the rest at shutdown', async () => {
    const w = new Recorder({ maxPending: 2 });
    [1, 2, 3].forEach((n) => w.record(n));
    await w.beforeApplicationShutdown();
    expect(w.batches).toEqual([[2, 3]]);
  });
});
