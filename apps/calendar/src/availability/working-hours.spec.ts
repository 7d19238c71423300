import fc from 'fast-check';
import { AvailabilityError, AvailabilityErrorReason as R } from './availability.errors';
import { resolveZone } from '@platform/time';
import {
  parseWorkingHours,
  WEEKDAYS,
  workingIntervals,
  type Weekday,
  type WorkingHours,
} from './working-hours';

const H = 3_600_000;
const localToInstant = (zone: string, wall: number) => resolveZone(zone)?.toInstant(wall);
const z = (iso: string) => Date.parse(iso);
const span = (start: string, end: string) => ({ start, end });
const everyDay = (...spans: { start: string; end: string }[]) =>
  Object.fromEntries(WEEKDAYS.map((d) => [d, spans])) as Record<Weekday, typeof spans>;
const iv = (a: string, b: string) => ({ start: z(a), end: z(b) });

describe('workingIntervals across DST', () => {
  it('Europe/Berlin spring forward (2025-03-30): 09:00-17:00 is 08-16Z the day before, 07-15Z that day', () => {
    const hours = { timeZone: 'Europe/Berlin', days: everyDay(span('09:00', '17:00')) };
    expect(workingIntervals(hours, { from: z('2025-03-29T00:00Z'), to: z('2025-03-31T00:00Z') })).toEqual([
      iv('2025-03-29T08:00Z', '2025-03-29T16:00Z'),
      iv('2025-03-30T07:00Z', '2025-03-30T15:00Z'),
    ]);
  });

  it('Europe/Berlin: a start in the gap moves forward by the gap (02:30 -> 03:30 CEST), RFC 5545', () => {
    const range = { from: z('2025-03-30T00:00Z'), to: z('2025-03-31T00:00Z') };
    expect(
      workingIntervals({ timeZone: 'Europe/Berlin', days: { sun: [span('02:30', '04:00')] } }, range),
    ).toEqual([iv('2025-03-30T01:30Z', '2025-03-30T02:00Z')]);
    // Wholly inside the gap, or a start pushed past the end: nothing that day.
    expect(
      workingIntervals({ timeZone: 'Europe/Berlin', days: { sun: [span('02:00', '03:00')] } }, range),
    ).toEqual([]);
    expect(
      workingIntervals({ timeZone: 'Europe/Berlin', days: { sun: [span('02:30', '03:15')] } }, range),
    ).toEqual([]);
    expect(localToInstant('Europe/Berlin', z('2025-03-30T02:30Z'))).toBe(z('2025-03-30T01:30Z'));
  });

  it('Europe/Berlin fall back (2025-10-26): 00:00-24:00 lasts 25 h; a repeated time is the first one', () => {
    const range = { from: z('2025-10-25T00:00Z'), to: z('2025-10-28T00:00Z') };
    const day = workingIntervals(
      { timeZone: 'Europe/Berlin', days: { sun: [span('00:00', '24:00')] } },
      range,
    );
    expect(day).toEqual([iv('2025-10-25T22:00Z', '2025-10-26T23:00Z')]);
    expect(day[0].end - day[0].start).toBe(25 * H);
    expect(
      workingIntervals({ timeZone: 'Europe/Berlin', days: { sun: [span('01:00', '02:30')] } }, range),
    ).toEqual([iv('2025-10-25T23:00Z', '2025-10-26T00:30Z')]);
  });

  it('America/New_York spring forward (2025-03-09) and fall back (2025-11-02)', () => {
    const hours = { timeZone: 'America/New_York', days: everyDay(span('09:00', '17:00')) };
    expect(workingIntervals(hours, { from: z('2025-03-08T00:00Z'), to: z('2025-03-10T00:00Z') })).toEqual([
      iv('2025-03-08T14:00Z', '2025-03-08T22:00Z'),
      iv('2025-03-09T13:00Z', '2025-03-09T21:00Z'),
    ]);
    expect(workingIntervals(hours, { from: z('2025-11-01T00:00Z'), to: z('2025-11-03T00:00Z') })).toEqual([
      iv('2025-11-01T13:00Z', '2025-11-01T21:00Z'),
      iv('2025-11-02T14:00Z', '2025-11-02T22:00Z'),
    ]);
    // 00:00-03:00 on the fall-back day holds 4 real hours (01:00-02:00 happens twice).
    const night = workingIntervals(
      { timeZone: 'America/New_York', days: { sun: [span('00:00', '03:00')] } },
      { from: z('2025-11-02T00:00Z'), to: z('2025-11-03T00:00Z') },
    );
    expect(night).toEqual([iv('2025-11-02T04:00Z', '2025-11-02T08:00Z')]);
    expect(localToInstant('America/New_York', z('2025-11-02T01:30Z'))).toBe(z('2025-11-02T05:30Z'));
  });

  it('America/Santiago skips midnight (2025-09-07): a night shift across it still merges', () => {
    const hours = {
      timeZone: 'America/Santiago',
      days: { sat: [span('20:00', '24:00')], sun: [span('00:00', '08:00')] },
    };
    expect(workingIntervals(hours, { from: z('2025-09-06T00:00Z'), to: z('2025-09-08T00:00Z') })).toEqual([
      iv('2025-09-07T00:00Z', '2025-09-07T11:00Z'),
    ]);
  });

  it('merges touching spans and a night shift across midnight, keeps a lunch break', () => {
    const hours: WorkingHours = {
      timeZone: 'UTC',
      days: {
        mon: [span('13:00', '17:00'), span('09:00', '12:00'), span('22:00', '24:00')],
        tue: [span('00:00', '06:00')],
      },
    };
    expect(workingIntervals(hours, { from: z('2025-06-16T00:00Z'), to: z('2025-06-18T00:00Z') })).toEqual([
      iv('2025-06-16T09:00Z', '2025-06-16T12:00Z'),
      iv('2025-06-16T13:00Z', '2025-06-16T17:00Z'),
      iv('2025-06-16T22:00Z', '2025-06-17T06:00Z'),
    ]);
  });

  it('clips to the range', () => {
    const hours = { timeZone: 'Asia/Almaty', days: everyDay(span('09:00', '18:00')) };
    expect(workingIntervals(hours, { from: z('2025-06-16T06:00Z'), to: z('2025-06-16T07:00Z') })).toEqual([
      iv('2025-06-16T06:00Z', '2025-06-16T07:00Z'),
    ]);
  });
});

describe('parseWorkingHours refuses hostile input with a reason code', () => {
  const ok = { timeZone: 'Europe/Berlin', days: { mon: [span('09:00', '17:00')] } };
  it.each<[string, unknown, R, string]>([
    ['not an object', 'mon-fri', R.INVALID_WORKING_HOURS, 'workingHours'],
    ['an unknown zone', { ...ok, timeZone: 'Mars/Olympus' }, R.INVALID_TIME_ZONE, 'workingHours.timeZone'],
    ['a zone that is not a string', { ...ok, timeZone: 42 }, R.INVALID_TIME_ZONE, 'workingHours.timeZone'],
    ['days as an array', { ...ok, days: [] }, R.INVALID_WORKING_HOURS, 'workingHours.days'],
    ['an unknown day', { ...ok, days: { funday: [] } }, R.INVALID_WORKING_HOURS, 'workingHours.days'],
    [
      'a prototype key as a day',
      { ...ok, days: JSON.parse('{"__proto__": []}') },
      R.INVALID_WORKING_HOURS,
      'workingHours.days',
    ],
    [
      'spans that are not a list',
      { ...ok, days: { mon: 'all' } },
      R.INVALID_WORKING_HOURS,
      'workingHours.days.mon',
    ],
    [
      'a span that is not an object',
      { ...ok, days: { mon: [7] } },
      R.INVALID_WORKING_HOURS,
      'workingHours.days.mon[0]',
    ],
    [
      '25:00',
      { ...ok, days: { mon: [span('09:00', '25:00')] } },
      R.INVALID_WALL_TIME,
      'workingHours.days.mon[0].end',
    ],
    [
      '9:00',
      { ...ok, days: { mon: [span('9:00', '17:00')] } },
      R.INVALID_WALL_TIME,
      'workingHours.days.mon[0].start',
    ],
    [
      '24:00 as a start',
      { ...ok, days: { mon: [span('24:00', '24:00')] } },
      R.INVALID_WALL_TIME,
      'workingHours.days.mon[0].start',
    ],
    [
      '24:30',
      { ...ok, days: { mon: [span('09:00', '24:30')] } },
      R.INVALID_WALL_TIME,
      'workingHours.days.mon[0].end',
    ],
    [
      'a number as a time',
      { ...ok, days: { mon: [{ start: 900, end: '17:00' }] } },
      R.INVALID_WALL_TIME,
      'workingHours.days.mon[0].start',
    ],
    [
      'end == start',
      { ...ok, days: { mon: [span('09:00', '09:00')] } },
      R.EMPTY_SPAN,
      'workingHours.days.mon[0]',
    ],
    [
      'end < start',
      { ...ok, days: { tue: [span('17:00', '09:00')] } },
      R.EMPTY_SPAN,
      'workingHours.days.tue[0]',
    ],
    [
      'overlapping spans',
      { ...ok, days: { wed: [span('12:00', '18:00'), span('09:00', '12:30')] } },
      R.OVERLAPPING_SPANS,
      'workingHours.days.wed',
    ],
    [
      'too many spans',
      {
        ...ok,
        days: {
          mon: Array.from({ length: 25 }, (_, i) =>
            span(`${String(i).padStart(2, '0')}:00`, `${String(i).padStart(2, '0')}:30`),
          ),
        },
      },
      R.INVALID_WORKING_HOURS,
      'workingHours.days.mon',
    ],
  ])('%s', (_name, input, reason, field) => {
    expect(() => parseWorkingHours(input)).toThrow(expect.objectContaining({ reason, field }));
  });

  it('accepts touching spans, 24:00 as an end, empty and null days; canonicalizes the zone', () => {
    const parsed = parseWorkingHours({
      timeZone: 'europe/berlin',
      days: { mon: [span('12:00', '24:00'), span('00:00', '12:00')], tue: [], wed: null },
    });
    expect(parsed.timeZone).toBe('Europe/Berlin');
    expect(parsed.days[0]).toEqual([
      [0, 720],
      [720, 1440],
    ]);
  });

  it('workingIntervals checks raw input too, and refuses a range over a year', () => {
    const range = { from: z('2025-01-01T00:00Z'), to: z('2025-01-02T00:00Z') };
    expect(() => workingIntervals({ timeZone: 'UTC', days: [] } as never, range)).toThrow(
      expect.objectContaining({ reason: R.INVALID_WORKING_HOURS }),
    );
    expect(() =>
      workingIntervals({ timeZone: 'UTC', days: {} }, { from: range.from, to: range.from + 367 * 24 * H }),
    ).toThrow(expect.objectContaining({ reason: R.RANGE_TOO_LONG }));
  });

  it('property: arbitrary input gives a schedule or an AvailabilityError, never another error', () => {
    const timeArb = fc.oneof(
      fc.constantFrom('00:00', '09:00', '24:00', '23:59', '25:00', '9:00', '', '12:60'),
      fc.string({ maxLength: 6 }),
      fc.anything(),
    );
    const spanArb = fc.oneof(fc.record({ start: timeArb, end: timeArb }), fc.anything());
    const daysArb = fc.oneof(
      fc.dictionary(
        fc.oneof(fc.constantFrom(...WEEKDAYS), fc.string()),
        fc.oneof(fc.array(spanArb), fc.anything()),
      ),
      fc.anything(),
    );
    const zoneArb = fc.oneof(fc.constantFrom('UTC', 'Europe/Berlin', 'Nowhere/Else', ''), fc.anything());
    fc.assert(
      fc.property(fc.oneof(fc.record({ timeZone: zoneArb, days: daysArb }), fc.anything()), (input) => {
        try {
          parseWorkingHours(input);
        } catch (e) {
          expect(e).toBeInstanceOf(AvailabilityError);
        }
      }),
      { numRuns: 500 },
    );
  });
});
