import { charLength, isCalendarDate, isInstant } from './fields';

describe('DTO field helpers', () => {
  it('counts code points, as PostgreSQL char_length does', () => {
    expect(charLength('abc')).toBe(3);
    expect(charLength('😀😀')).toBe(2);
    expect(charLength('❤️')).toBe(2);
    expect(charLength('')).toBe(0);
  });

  it('accepts only real calendar dates of years 0001-9999', () => {
    expect(['2024-02-29', '0001-01-01', '9999-12-31', '2000-02-29'].every((d) => isCalendarDate(d))).toBe(
      true,
    );
    expect(
      ['2026-02-29', '1900-02-29', '2026-13-01', '2026-12-32', '0000-01-01', '2026-1-1', 20261201].some((d) =>
        isCalendarDate(d),
      ),
    ).toBe(false);
  });

  it('accepts instants with an offset whose UTC time lies in years 0001-9999', () => {
    expect(isInstant('2026-12-01T10:00:00+05:00')).toBe(true);
    expect(isInstant('0050-06-01T00:00:00Z')).toBe(true);
    expect(isInstant('2026-12-01T10:00:00.123456Z')).toBe(true);
    for (const bad of [
      '2026-12-01T10:00:00',
      '2026-12-01T24:00:00Z',
      '2026-02-30T10:00:00Z',
      '0001-01-01T00:00:00+01:00',
      '9999-12-31T23:59:59-01:00',
      '2026-12-01T10:00:00+19:00',
      '2026-12-01',
    ]) {
      expect([bad, isInstant(bad)]).toEqual([bad, false]);
    }
    expect(isInstant('2026-12-01', { allowDate: true })).toBe(true);
  });
});
