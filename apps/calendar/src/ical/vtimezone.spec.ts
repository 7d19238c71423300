import ICAL from 'ical.js';
import { formatWall, resolveZone, type Zone } from '@platform/time';
import { vtimezone, zoneTransitions } from './vtimezone';

const HOUR = 3_600_000;

function observances(c: ICAL.Component): string[] {
  return c
    .getAllSubcomponents()
    .map((o) =>
      [
        o.name,
        o.getFirstProperty('dtstart')?.toICALString().replace('DTSTART:', ''),
        o.getFirstProperty('tzoffsetfrom')?.toICALString().replace('TZOFFSETFROM:', ''),
        o.getFirstProperty('tzoffsetto')?.toICALString().replace('TZOFFSETTO:', ''),
        o.getFirstProperty('rrule')?.toICALString().replace('RRULE:', '') ?? '',
      ].join(' '),
    );
}

/** ical.js reads every unambiguous wall time of the span (and years past it) as libs/time does. */
function expectSameReading(tzid: string, zone: Zone, c: ICAL.Component, from: string, to: string): number {
  const parsed = ICAL.Component.fromString(c.toString());
  const tz = new ICAL.Timezone(parsed);
  let checked = 0;
  for (let at = Date.parse(from); at < Date.parse(to); at += 7 * HOUR) {
    if (zone.offsetAt(at - 3 * HOUR) !== zone.offsetAt(at + 3 * HOUR)) continue;
    const wall = formatWall(at + zone.offsetAt(at));
    const t = ICAL.Time.fromDateTimeString(wall);
    t.zone = tz;
    expect([tzid, wall, t.toUnixTime() * 1000]).toEqual([tzid, wall, at]);
    checked++;
  }
  return checked;
}

describe('VTIMEZONE from libs/time', () => {
  const from = new Date('2026-01-01T00:00:00Z');
  const to = new Date('2026-12-31T00:00:00Z');

  it('has the real 2026 changes of Europe/Berlin, with yearly rules after the last ones', () => {
    const c = vtimezone('Europe/Berlin', from, to);
    expect(c.getFirstPropertyValue('tzid')).toBe('Europe/Berlin');
    expect(observances(c)).toEqual([
      'standard 20260101T000000 +0100 +0100 ',
      'daylight 20260329T020000 +0100 +0200 FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
      'standard 20261025T030000 +0200 +0100 FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
    ]);
    const zone = resolveZone('Europe/Berlin') as Zone;
    expect(
      expectSameReading('Europe/Berlin', zone, c, '2026-01-01T00:00:00Z', '2034-01-01T00:00:00Z'),
    ).toBeGreaterThan(9000);
  });

  it('has the real changes of America/New_York', () => {
    const c = vtimezone('America/New_York', from, to);
    expect(observances(c)).toEqual([
      'standard 20251231T000000 -0500 -0500 ',
      'daylight 20260308T020000 -0500 -0400 FREQ=YEARLY;BYMONTH=3;BYDAY=2SU',
      'standard 20261101T020000 -0400 -0500 FREQ=YEARLY;BYMONTH=11;BYDAY=1SU',
    ]);
    const zone = resolveZone('America/New_York') as Zone;
    expect(
      expectSameReading('America/New_York', zone, c, '2026-01-01T00:00:00Z', '2034-01-01T00:00:00Z'),
    ).toBeGreaterThan(9000);
  });

  it('lists each change over several years, the rule only on the last ones', () => {
    const c = vtimezone('Europe/Berlin', new Date('2024-06-01T00:00:00Z'), to);
    expect(observances(c)).toEqual([
      'daylight 20240601T000000 +0200 +0200 ',
      'standard 20241027T030000 +0200 +0100 ',
      'daylight 20250330T020000 +0100 +0200 ',
      'standard 20251026T030000 +0200 +0100 ',
      'daylight 20260329T020000 +0100 +0200 FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
      'standard 20261025T030000 +0200 +0100 FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
    ]);
  });

  it('has one observance for a zone without DST (Asia/Almaty, +05:00 since 2024-03-01)', () => {
    const c = vtimezone('Asia/Almaty', from, to);
    expect(observances(c)).toEqual(['standard 20260101T000000 +0500 +0500 ']);
    const zone = resolveZone('Asia/Almaty') as Zone;
    expect(
      expectSameReading('Asia/Almaty', zone, c, '2026-01-01T00:00:00Z', '2030-01-01T00:00:00Z'),
    ).toBeGreaterThan(4000);
    // The 2024 change is found when the span covers it.
    expect(
      zoneTransitions(zone, Date.parse('2024-01-01T00:00:00Z'), Date.parse('2024-12-31T00:00:00Z')),
    ).toEqual([{ at: Date.parse('2024-02-29T18:00:00Z'), from: 6 * HOUR, to: 5 * HOUR }]);
  });

  it('keeps the TZID as the events reference it and refuses an unknown zone', () => {
    expect(vtimezone('europe/berlin', from, to).getFirstPropertyValue('tzid')).toBe('europe/berlin');
    expect(() => vtimezone('Mars/Olympus', from, to)).toThrow('unknown time zone');
  });
});
