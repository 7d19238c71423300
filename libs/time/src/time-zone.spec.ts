import fc from 'fast-check';
import { DAY_MS, daysFromCivil, formatWall } from './civil-date';
import { resolveZone as maybeZone, type Zone, isIanaTimeZone } from './time-zone';

function resolveZone(name: string): Zone {
  const zone = maybeZone(name);
  if (!zone) throw new Error(`unknown zone ${name}`);
  return zone;
}

/** The offset Intl gives, read through formatToParts (not the engine's path). */
function intlOffset(zone: string, instantMs: number): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(instantMs);
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  const wall =
    daysFromCivil(get('year'), get('month'), get('day')) * DAY_MS +
    ((get('hour') * 60 + get('minute')) * 60 + get('second')) * 1000;
  return wall - Math.floor(instantMs / 1000) * 1000;
}

const ZONES = [
  'Europe/Berlin',
  'America/New_York',
  'America/Sao_Paulo',
  'Australia/Lord_Howe',
  'Pacific/Apia',
  'Pacific/Kiritimati',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Africa/Casablanca',
  'America/St_Johns',
  'Europe/Moscow',
  'Antarctica/Troll',
  'America/Sitka',
  'Asia/Tehran',
  'Europe/Dublin',
  'Pacific/Chatham',
  'America/Santiago',
  'Asia/Gaza',
];

describe('time zones through Intl', () => {
  it('cached offsets equal Intl at random instants 1850-2100', () => {
    const lo = daysFromCivil(1850, 1, 1) * DAY_MS;
    const hi = daysFromCivil(2100, 1, 1) * DAY_MS;
    fc.assert(
      fc.property(fc.constantFrom(...ZONES), fc.integer({ min: lo / 1000, max: hi / 1000 }), (name, s) => {
        expect(resolveZone(name).offsetAt(s * 1000)).toBe(intlOffset(name, s * 1000));
      }),
      { numRuns: 4000, seed: 42 },
    );
  });

  it('cached offsets equal Intl every 15 minutes around the 2026 transitions', () => {
    const cases: Array<[string, string]> = [
      ['Europe/Berlin', '2026-03-29'],
      ['Europe/Berlin', '2026-10-25'],
      ['America/New_York', '2026-03-08'],
      ['America/New_York', '2026-11-01'],
      ['Australia/Lord_Howe', '2026-10-04'],
      ['Australia/Lord_Howe', '2026-04-05'],
      ['Pacific/Apia', '2011-12-30'],
      ['Africa/Casablanca', '2026-02-15'],
    ];
    for (const [name, date] of cases) {
      const zone = resolveZone(name);
      const [y, m, d] = date.split('-').map(Number);
      const day = daysFromCivil(y, m, d) * DAY_MS;
      for (let t = day - DAY_MS; t < day + 2 * DAY_MS; t += 15 * 60_000)
        expect([name, t, zone.offsetAt(t)]).toEqual([name, t, intlOffset(name, t)]);
    }
  });

  it('reads wall times as RFC 5545 3.3.5 says: the gap with the offset before it, the fold as its first time', () => {
    const berlin = resolveZone('Europe/Berlin');
    const at = (wall: string) => {
      const [date, time] = wall.split('T');
      const [y, m, d] = date.split('-').map(Number);
      const [h, mi] = time.split(':').map(Number);
      return formatWall(berlin.toInstant(daysFromCivil(y, m, d) * DAY_MS + (h * 60 + mi) * 60_000));
    };
    expect(at('2026-03-29T01:59')).toBe('2026-03-29T00:59:00');
    expect(at('2026-03-29T02:00')).toBe('2026-03-29T01:00:00');
    expect(at('2026-03-29T02:30')).toBe('2026-03-29T01:30:00');
    expect(at('2026-03-29T03:00')).toBe('2026-03-29T01:00:00');
    expect(at('2026-10-25T01:59')).toBe('2026-10-24T23:59:00');
    expect(at('2026-10-25T02:00')).toBe('2026-10-25T00:00:00');
    expect(at('2026-10-25T02:59')).toBe('2026-10-25T00:59:00');
    expect(at('2026-10-25T03:00')).toBe('2026-10-25T02:00:00');
  });

  it('every wall time maps to an instant showing that wall time, or (in a gap) one shifted forward', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.integer({ min: daysFromCivil(1900, 1, 1), max: daysFromCivil(2100, 1, 1) }),
        fc.integer({ min: 0, max: 95 }),
        (name, day, quarter) => {
          const zone = resolveZone(name);
          const wall = day * DAY_MS + quarter * 15 * 60_000;
          const t = zone.toInstant(wall);
          const shown = t + zone.offsetAt(t);
          expect(shown).toBeGreaterThanOrEqual(wall);
          if (shown !== wall) {
            // Nonexistent: nothing shows this wall time, and the reading used the earlier offset.
            expect(zone.offsetAt(t - 1000)).not.toBe(zone.offsetAt(t + DAY_MS));
          } else {
            // Existing: no earlier instant shows it (first occurrence of an ambiguous time).
            for (const other of [zone.offsetAt(t - DAY_MS), zone.offsetAt(t + DAY_MS)]) {
              const u = wall - other;
              if (u < t) expect(u + zone.offsetAt(u)).not.toBe(wall);
            }
          }
        },
      ),
      { numRuns: 3000, seed: 7 },
    );
  });

  it('knows UTC, fixed offsets and refuses what Intl does not know', () => {
    expect(resolveZone('UTC').offsetAt(0)).toBe(0);
    expect(resolveZone('Etc/UTC').fixed).toBe(true);
    expect(resolveZone('+05:30').offsetAt(0)).toBe(5.5 * 3_600_000);
    expect(resolveZone('-0330').offsetAt(0)).toBe(-3.5 * 3_600_000);
    for (const bad of [
      '',
      'Mars/Olympus',
      '+25:00',
      'Europe/Berlin\u0000',
      'x'.repeat(200),
      '../etc/passwd',
    ]) {
      expect(maybeZone(bad)).toBeNull();
    }
  });
});

describe('isIanaTimeZone', () => {
  it('takes IANA zone names only, not the bare offsets Intl also accepts since Node 24', () => {
    for (const ok of [
      'Asia/Almaty',
      'asia/almaty',
      'Europe/Berlin',
      'Etc/GMT-5',
      'UTC',
      'America/Argentina/Buenos_Aires',
    ])
      expect(isIanaTimeZone(ok)).toBe(true);
    for (const bad of ['+05:00', '-0500', '+05', 'Z', 'GMT+5', 'Mars/Olympus', '', ' Asia/Almaty', 5, null])
      expect(isIanaTimeZone(bad)).toBe(false);
  });
});
