import { AvailabilityErrorReason as R } from './availability.errors';
import { findSlots } from './find-slots';
import type { BusyInterval } from './intervals';
import type { FindSlotsRequest, SlotParticipant } from './slot-search.types';
import { WEEKDAYS, type Weekday, type WorkingHours } from './working-hours';

const z = (iso: string) => Date.parse(iso);
/** Times on Monday 2025-06-16, UTC. */
const utc = (hhmm: string) => z(`2025-06-16T${hhmm}Z`);
const busy = (from: string, to: string): BusyInterval => ({ start: utc(from), end: utc(to), kind: 'busy' });
const tentative = (from: string, to: string): BusyInterval => ({
  start: utc(from),
  end: utc(to),
  kind: 'tentative',
});
const hours = (
  timeZone: string,
  start: string,
  end: string,
  days: readonly Weekday[] = WEEKDAYS,
): WorkingHours => ({
  timeZone,
  days: Object.fromEntries(days.map((d) => [d, [{ start, end }]])),
});
const person = (id: string, extra: Partial<SlotParticipant> = {}): SlotParticipant => ({
  id,
  kind: 'person',
  required: true,
  busy: [],
  ...extra,
});
const search = (extra: Partial<FindSlotsRequest>): FindSlotsRequest => ({
  participants: [],
  durationMinutes: 60,
  granularityMinutes: 60,
  maxResults: 100,
  range: { from: utc('00:00'), to: z('2025-06-17T00:00Z') },
  ...extra,
});
const starts = (req: FindSlotsRequest) =>
  findSlots(req).slots.map((s) => new Date(s.start).toISOString().slice(0, 16));

describe('findSlots', () => {
  it('keeps the starts where every required participant is free; tentative blocks by default', () => {
    const req = search({
      participants: [
        person('a', { busy: [busy('10:00', '11:00')] }),
        person('b', { busy: [tentative('13:00', '14:30')] }),
      ],
      range: { from: utc('09:00'), to: utc('17:00') },
      granularityMinutes: 30,
    });
    expect(starts(req).map((s) => s.slice(11))).toEqual([
      '09:00',
      '11:00',
      '11:30',
      '12:00',
      '14:30',
      '15:00',
      '15:30',
      '16:00',
    ]);
    expect(starts({ ...req, tentativeAsFree: true })).toHaveLength(12);
    expect(findSlots(req).slots[0]).toEqual({
      start: utc('09:00'),
      end: utc('10:00'),
      optionalFree: [],
      optionalBusy: [],
    });
  });

  it('needs the buffers around the slot free too (not inside working hours)', () => {
    const req = search({
      participants: [
        person('a', { busy: [busy('10:00', '11:00')], workingHours: hours('UTC', '09:00', '12:00') }),
      ],
      range: { from: utc('09:00'), to: utc('12:00') },
      durationMinutes: 30,
      granularityMinutes: 15,
      bufferBeforeMinutes: 15,
      bufferAfterMinutes: 15,
    });
    expect(starts(req).map((s) => s.slice(11))).toEqual(['09:00', '09:15', '11:15', '11:30']);
  });

  it('follows Europe/Berlin working hours across spring forward (2025-03-30)', () => {
    const req = search({
      participants: [
        person('anna', { workingHours: hours('Europe/Berlin', '09:00', '17:00') }),
        { id: 'room', kind: 'resource', required: true, busy: [] },
      ],
      range: { from: z('2025-03-29T00:00Z'), to: z('2025-03-31T00:00Z') },
    });
    const got = starts(req);
    expect(got.filter((s) => s.startsWith('2025-03-29')).map((s) => s.slice(11))).toEqual(
      ['08', '09', '10', '11', '12', '13', '14', '15'].map((h) => `${h}:00`),
    );
    expect(got.filter((s) => s.startsWith('2025-03-30')).map((s) => s.slice(11))).toEqual(
      ['07', '08', '09', '10', '11', '12', '13', '14'].map((h) => `${h}:00`),
    );
  });

  it('follows America/New_York working hours across fall back (2025-11-02)', () => {
    const got = starts(
      search({
        participants: [person('bob', { workingHours: hours('America/New_York', '09:00', '17:00') })],
        range: { from: z('2025-11-01T00:00Z'), to: z('2025-11-03T00:00Z') },
      }),
    );
    expect(got[0]).toBe('2025-11-01T13:00');
    expect(got[7]).toBe('2025-11-01T20:00');
    expect(got[8]).toBe('2025-11-02T14:00');
    expect(got[15]).toBe('2025-11-02T21:00');
    expect(got).toHaveLength(16);
  });

  it('finds the overlap of Almaty and New York: one hour in summer (EDT), none in winter (EST)', () => {
    const participants = [
      person('aigerim', { workingHours: hours('Asia/Almaty', '09:00', '18:00') }), // 04:00-13:00Z
      person('john', { workingHours: hours('America/New_York', '08:00', '17:00') }), // 12:00-21:00Z in June
    ];
    const june = search({ participants, durationMinutes: 30, granularityMinutes: 15 });
    expect(starts(june)).toEqual(['2025-06-16T12:00', '2025-06-16T12:15', '2025-06-16T12:30']);
    const january = search({
      participants,
      durationMinutes: 30,
      granularityMinutes: 15,
      range: { from: z('2025-01-13T00:00Z'), to: z('2025-01-14T00:00Z') },
    });
    expect(findSlots(january)).toEqual({ slots: [], totalSlots: 0, nextCursor: null });
  });

  it('returns an empty page when the range is shorter than the meeting or nobody required is ever free', () => {
    expect(findSlots(search({ range: { from: utc('09:00'), to: utc('09:59') } }))).toEqual({
      slots: [],
      totalSlots: 0,
      nextCursor: null,
    });
    const allBusy = search({ participants: [person('a', { busy: [busy('00:00', '23:59')] })] });
    expect(findSlots(allBusy).totalSlots).toBe(0);
    // Without participants every aligned start is a slot.
    expect(findSlots(search({})).totalSlots).toBe(24);
  });

  it('ranks by optional participants free, then by start, and pages with a cursor', () => {
    const req = search({
      participants: [
        person('lead'),
        person('o1', { required: false, busy: [busy('09:00', '10:00')] }),
        person('o2', { required: false, busy: [busy('09:00', '12:00')] }),
      ],
      range: { from: utc('09:00'), to: utc('13:00') },
      maxResults: 2,
    });
    const first = findSlots(req);
    expect(first.slots).toEqual([
      { start: utc('12:00'), end: utc('13:00'), optionalFree: ['o1', 'o2'], optionalBusy: [] },
      { start: utc('10:00'), end: utc('11:00'), optionalFree: ['o1'], optionalBusy: ['o2'] },
    ]);
    expect(first.totalSlots).toBe(4);
    expect(first.nextCursor).toBe(`v1.1.${utc('11:00')}._`);
    const second = findSlots({ ...req, cursor: first.nextCursor });
    expect(second.slots).toEqual([
      { start: utc('11:00'), end: utc('12:00'), optionalFree: ['o1'], optionalBusy: ['o2'] },
      { start: utc('09:00'), end: utc('10:00'), optionalFree: [], optionalBusy: ['o1', 'o2'] },
    ]);
    expect(second.nextCursor).toBeNull();
  });

  it('explains each rejected start: who, and every reason (working hours, busy, tentative)', () => {
    const req = search({
      participants: [
        person('a', {
          busy: [busy('10:00', '11:00'), tentative('10:30', '12:00')],
          workingHours: hours('UTC', '09:00', '12:00'),
        }),
        { id: 'room', kind: 'resource', required: true, busy: [busy('09:00', '09:30')] },
        person('optional', { required: false, busy: [busy('00:00', '23:00')] }),
      ],
      range: { from: utc('08:00'), to: utc('13:00') },
      explain: true,
    });
    const result = findSlots(req);
    expect(result.slots).toEqual([]);
    expect(result.totalExcluded).toBe(5);
    expect(result.excluded?.map((e) => [new Date(e.start).toISOString().slice(11, 16), e.reasons])).toEqual([
      ['08:00', [{ participant: 'a', reason: 'outside_working_hours' }]],
      ['09:00', [{ participant: 'room', reason: 'busy' }]],
      ['10:00', [{ participant: 'a', reason: 'busy' }]],
      // The tentative 10:30-11:00 lies under busy time: only 11:00-12:00 is tentative.
      ['11:00', [{ participant: 'a', reason: 'tentative' }]],
      ['12:00', [{ participant: 'a', reason: 'outside_working_hours' }]],
    ]);
    expect(starts({ ...req, tentativeAsFree: true })).toEqual(['2025-06-16T11:00']);
  });

  it('aligns starts to the UTC grid, not to the range start', () => {
    const got = starts(
      search({
        range: { from: utc('09:07'), to: utc('10:30') },
        durationMinutes: 15,
        granularityMinutes: 20,
      }),
    );
    expect(got.map((s) => s.slice(11))).toEqual(['09:20', '09:40', '10:00']);
  });

  it.each<[string, Partial<FindSlotsRequest>, R, string]>([
    [
      'a range over 31 days',
      { range: { from: utc('00:00'), to: utc('00:00') + 32 * 86_400_000 } },
      R.RANGE_TOO_LONG,
      'range',
    ],
    ['an inverted range', { range: { from: utc('10:00'), to: utc('09:00') } }, R.INVALID_RANGE, 'range'],
    ['a step under 5 minutes', { granularityMinutes: 4 }, R.INVALID_GRANULARITY, 'granularityMinutes'],
    [
      'a step that does not divide a day',
      { granularityMinutes: 7 },
      R.INVALID_GRANULARITY,
      'granularityMinutes',
    ],
    ['a zero duration', { durationMinutes: 0 }, R.INVALID_DURATION, 'durationMinutes'],
    ['a fractional duration', { durationMinutes: 1.5 }, R.INVALID_DURATION, 'durationMinutes'],
    ['a duration over a day', { durationMinutes: 1441 }, R.INVALID_DURATION, 'durationMinutes'],
    ['a negative buffer', { bufferBeforeMinutes: -1 }, R.INVALID_BUFFER, 'bufferBeforeMinutes'],
    ['a huge buffer', { bufferAfterMinutes: 241 }, R.INVALID_BUFFER, 'bufferAfterMinutes'],
    ['maxResults 0', { maxResults: 0 }, R.INVALID_MAX_RESULTS, 'maxResults'],
    ['maxResults over 500', { maxResults: 501 }, R.INVALID_MAX_RESULTS, 'maxResults'],
    ['explain as a string', { explain: 'yes' as never }, R.INVALID_OPTION, 'explain'],
    ['a forged cursor', { cursor: 'v1.1.2' }, R.INVALID_CURSOR, 'cursor'],
    ['a cursor that is not a string', { cursor: 12 as never }, R.INVALID_CURSOR, 'cursor'],
    [
      'duplicate ids',
      { participants: [person('a'), person('a')] },
      R.DUPLICATE_PARTICIPANT,
      'participants[1].id',
    ],
    [
      'too many participants',
      { participants: Array.from({ length: 501 }, (_, i) => person(`p${i}`)) },
      R.TOO_MANY_PARTICIPANTS,
      'participants',
    ],
    [
      'an unknown kind',
      { participants: [person('a', { kind: 'robot' as never })] },
      R.INVALID_PARTICIPANT,
      'participants[0].kind',
    ],
    [
      'a broken interval',
      { participants: [person('a', { busy: [busy('10:00', '09:00')] })] },
      R.INVALID_INTERVAL,
      'participants[0].busy[0]',
    ],
    [
      'working hours ending at 25:00',
      { participants: [person('a', { workingHours: hours('UTC', '09:00', '25:00') })] },
      R.INVALID_WALL_TIME,
      'participants[0].workingHours.days.mon[0].end',
    ],
    [
      'an unknown zone',
      { participants: [person('a', { workingHours: hours('Europe/Atlantis', '09:00', '17:00') })] },
      R.INVALID_TIME_ZONE,
      'participants[0].workingHours.timeZone',
    ],
  ])('refuses %s with a typed error', (_name, extra, reason, field) => {
    expect(() => findSlots(search(extra))).toThrow(expect.objectContaining({ reason, field }));
  });

  it('stays fast on 200 participants x 30 days with working hours in four zones and explain on', () => {
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const zones = ['Europe/Berlin', 'America/New_York', 'Asia/Almaty', 'Asia/Kolkata'];
    const from = z('2025-10-06T00:00Z'); // spans the Berlin and New York fall-back weekends
    const participants = Array.from({ length: 200 }, (_, i): SlotParticipant => ({
      id: `p${i}`,
      kind: i % 10 === 0 ? 'resource' : 'person',
      required: i < 5,
      workingHours: i % 10 === 0 ? null : hours(zones[i % 4], '08:00', '20:00', WEEKDAYS.slice(0, 5)),
      busy: Array.from({ length: 90 }, (): BusyInterval => {
        const start = from + rnd(30 * 96) * 15 * 60_000;
        return { start, end: start + (1 + rnd(6)) * 15 * 60_000, kind: rnd(5) === 0 ? 'tentative' : 'busy' };
      }),
    }));
    const result = findSlots({
      participants,
      range: { from, to: from + 30 * 86_400_000 },
      durationMinutes: 30,
      granularityMinutes: 15,
      bufferAfterMinutes: 10,
      maxResults: 50,
      explain: true,
    });
    expect(result.slots.length).toBe(Math.min(50, result.totalSlots));
    expect(result.totalSlots + (result.totalExcluded ?? 0)).toBe(30 * 96 - 1);
  });
});
