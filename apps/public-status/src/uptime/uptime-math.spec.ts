import { secondsPerDay, uptimePercent, worstOfTimelines, zeroSeconds } from './uptime-math';

const t = (iso: string) => Date.parse(iso);

describe('uptime math', () => {
  it('splits a span at UTC midnight and stops open spans at now', () => {
    const days = secondsPerDay(
      [{ state: 'major_outage', start: t('2026-01-01T23:00:00Z'), end: null }],
      ['2026-01-01', '2026-01-02'],
      t('2026-01-02T01:30:00Z'),
    );
    expect(days.get('2026-01-01')?.major_outage).toBe(3600);
    expect(days.get('2026-01-02')?.major_outage).toBe(5400);
  });

  it('counts major outage fully, partial at 30%, degraded as up, and leaves maintenance out', () => {
    const s = {
      ...zeroSeconds(),
      operational: 50,
      degraded_performance: 10,
      partial_outage: 20,
      major_outage: 20,
      under_maintenance: 1000,
    };
    expect(uptimePercent(s)).toBe(74); // (100 - 20 - 6) / 100
    expect(uptimePercent({ ...zeroSeconds(), under_maintenance: 10 })).toBeNull();
    expect(uptimePercent(zeroSeconds())).toBeNull();
  });

  it('takes the worst state at each moment, only where some resource existed', () => {
    const spans = worstOfTimelines(
      [
        [{ state: 'under_maintenance', start: 0, end: 10 }],
        [
          { state: 'operational', start: 5, end: 8 },
          { state: 'partial_outage', start: 8, end: 20 },
        ],
      ],
      100,
    );
    expect(spans).toEqual([
      { state: 'under_maintenance', start: 0, end: 8 },
      { state: 'partial_outage', start: 8, end: 20 },
    ]);
  });
});
