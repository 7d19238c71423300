import { localDateTime, resolveZone } from './time-zone';

describe('localDateTime', () => {
  it('gives the wall time with the zone offset at that instant', () => {
    expect(localDateTime(new Date('2026-12-01T05:00:00Z'), 'Asia/Almaty')).toBe('2026-12-01T10:00:00+05:00');
    expect(localDateTime(new Date('2026-03-30T07:00:00Z'), 'Europe/Berlin')).toBe(
      '2026-03-30T09:00:00+02:00',
    );
    expect(localDateTime(new Date('2026-03-23T08:00:00Z'), 'Europe/Berlin')).toBe(
      '2026-03-23T09:00:00+01:00',
    );
    expect(localDateTime(new Date('2026-11-02T14:00:00Z'), 'America/New_York')).toBe(
      '2026-11-02T09:00:00-05:00',
    );
    expect(localDateTime(new Date('2026-06-01T03:30:00Z'), 'Asia/Kolkata')).toBe('2026-06-01T09:00:00+05:30');
    expect(localDateTime(new Date('2026-06-01T00:00:00Z'), 'UTC')).toBe('2026-06-01T00:00:00+00:00');
  });

  it('keeps milliseconds when there are any, and the instant it was given', () => {
    const at = new Date('2026-12-01T05:00:00.123Z');
    const s = localDateTime(at, 'Asia/Almaty');
    expect(s).toBe('2026-12-01T10:00:00.123+05:00');
    expect(Date.parse(s)).toBe(at.getTime());
  });

  it('falls back to UTC for an unknown zone and at the edges of the calendar', () => {
    expect(localDateTime(new Date('2026-12-01T05:00:00Z'), 'Mars/Olympus')).toBe('2026-12-01T05:00:00.000Z');
    expect(resolveZone('Mars/Olympus')).toBeNull();
    // Local mean time (Berlin +00:53:28 in 1850) is no whole-minute offset.
    expect(localDateTime(new Date('1850-01-01T00:00:00Z'), 'Europe/Berlin')).toBe('1850-01-01T00:00:00.000Z');
    expect(localDateTime(new Date('9999-12-31T23:00:00Z'), 'Asia/Almaty')).toBe('9999-12-31T23:00:00.000Z');
    const yearOne = localDateTime(new Date('0001-01-01T00:00:00Z'), 'UTC');
    expect(yearOne).toBe('0001-01-01T00:00:00+00:00');
  });

  it('is the same instant on every hour across a year of DST changes', () => {
    for (let t = Date.parse('2026-01-01T00:00:00Z'); t < Date.parse('2027-01-01T00:00:00Z'); t += 3600_000) {
      for (const zone of ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe']) {
        expect(Date.parse(localDateTime(new Date(t), zone))).toBe(t);
      }
    }
  });
});
