import { setImmediate as tick } from 'node:timers/promises';
import { currentRequestId, runWithRequestId } from './request-context';

describe('request context', () => {
  it('names the request in everything its work starts, and nothing outside it', async () => {
    expect(currentRequestId()).toBeNull();
    const seen = await runWithRequestId('r-1', async () => {
      await tick();
      const later = await new Promise<string | null>((done) => setTimeout(() => done(currentRequestId()), 1));
      return [currentRequestId(), later];
    });
    expect(seen).toEqual(['r-1', 'r-1']);
    expect(currentRequestId()).toBeNull();
  });

  it('keeps concurrent requests apart; an inner request or `null` replaces the outer one', async () => {
    const [a, b] = await Promise.all(
      ['r-a', 'r-b'].map((id) =>
        runWithRequestId(id, async () => {
          await tick();
          return currentRequestId();
        }),
      ),
    );
    expect([a, b]).toEqual(['r-a', 'r-b']);
    runWithRequestId('outer', () => {
      expect(runWithRequestId('inner', currentRequestId)).toBe('inner');
      expect(runWithRequestId(null, currentRequestId)).toBeNull();
      expect(currentRequestId()).toBe('outer');
    });
  });
});
