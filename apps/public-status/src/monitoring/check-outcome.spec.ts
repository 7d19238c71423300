import { nextStreak, outcomeOf, stateOfCheck, type Streak } from './check-outcome';

const expect200 = { expectStatusMin: 200, expectStatusMax: 299, bodyContains: null, slowMs: null };
const ok = { statusCode: 200, error: null, latencyMs: 5, body: 'ok' };

describe('check outcome', () => {
  it('passes an expected status, fails an error, another status or a missing text, and marks slow answers', () => {
    expect(outcomeOf(expect200, ok).outcome).toBe('up');
    expect(outcomeOf(expect200, { ...ok, statusCode: null, error: 'timeout after 100 ms' })).toEqual({
      outcome: 'down',
      error: 'timeout after 100 ms',
    });
    expect(outcomeOf(expect200, { ...ok, statusCode: 503 }).outcome).toBe('down');
    expect(outcomeOf({ ...expect200, bodyContains: 'healthy' }, ok).outcome).toBe('down');
    expect(outcomeOf({ ...expect200, slowMs: 3 }, ok).outcome).toBe('slow');
  });

  it('settles only after N consecutive equal outcomes, both ways', () => {
    const t = { failureThreshold: 3, recoveryThreshold: 2 };
    let s: Streak = { status: 'up', streakOutcome: 'up', streak: 5 };
    s = nextStreak(s, 'down', t);
    s = nextStreak(s, 'down', t);
    expect(s.status).toBe('up');
    s = nextStreak(s, 'up', t);
    s = nextStreak(s, 'down', t);
    s = nextStreak(s, 'down', t);
    expect(s.status).toBe('up');
    s = nextStreak(s, 'down', t);
    expect(s).toEqual({ status: 'down', streakOutcome: 'down', streak: 3 });
    s = nextStreak(s, 'up', t);
    expect(s.status).toBe('down');
    s = nextStreak(s, 'up', t);
    expect(s.status).toBe('up');
  });

  it('maps a settled status to the state it asks for', () => {
    expect(stateOfCheck('unknown', 'major_outage')).toBeNull();
    expect(stateOfCheck('down', 'partial_outage')).toBe('partial_outage');
    expect(stateOfCheck('slow', 'major_outage')).toBe('degraded_performance');
    expect(stateOfCheck('up', 'major_outage')).toBe('operational');
  });
});
