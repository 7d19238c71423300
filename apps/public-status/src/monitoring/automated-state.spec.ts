import { desiredState, heldByStaff } from './automated-state';

describe('automated state precedence', () => {
  it('lets maintenance and non-operational manual or incident states hold', () => {
    expect(heldByStaff({ state: 'under_maintenance', stateSource: 'maintenance' })).toBe(true);
    expect(heldByStaff({ state: 'under_maintenance', stateSource: 'manual' })).toBe(true);
    expect(heldByStaff({ state: 'partial_outage', stateSource: 'manual' })).toBe(true);
    expect(heldByStaff({ state: 'major_outage', stateSource: 'incident' })).toBe(true);
    expect(heldByStaff({ state: 'operational', stateSource: 'manual' })).toBe(false);
    expect(heldByStaff({ state: 'major_outage', stateSource: 'check' })).toBe(false);
  });

  it('takes the worst signal, and returns an orphaned automated outage to operational', () => {
    const cur = { state: 'operational' as const, stateSource: 'manual' as const };
    expect(
      desiredState(
        cur,
        [
          { state: 'degraded_performance', source: 'check' },
          { state: 'major_outage', source: 'health' },
        ],
        'check',
      ),
    ).toEqual({ state: 'major_outage', source: 'health' });
    expect(desiredState(cur, [{ state: 'operational', source: 'health' }], 'check')).toEqual({
      state: 'operational',
      source: 'check',
    });
    expect(desiredState(cur, [], 'check')).toBeNull();
    expect(desiredState({ state: 'major_outage', stateSource: 'check' }, [], 'check')).toEqual({
      state: 'operational',
      source: 'check',
    });
  });
});
