import {
  busyIntervals,
  compileRecurrence,
  expandRecurrence,
  occurrenceIntervals,
  type ExpandOptions,
  type Occurrence,
  type RecurrenceSeries,
} from './index';

const berlin = (wall: string) => ({ dateTime: wall, timeZone: 'Europe/Berlin' });
const YEAR_2026 = { from: '2026-01-01T00:00:00Z', to: '2027-01-01T00:00:00Z' };

function ids(series: RecurrenceSeries, range: Partial<ExpandOptions> = {}): string[] {
  return expandRecurrence(series, { ...YEAR_2026, limit: 1000, ...range }).occurrences.map(
    (o) => o.recurrenceId,
  );
}

const local = (o: Occurrence) => ('local' in o.start ? `${o.start.local}${o.start.offset}` : o.start.date);
const localEnd = (o: Occurrence) => ('local' in o.end ? `${o.end.local}${o.end.offset}` : o.end.date);

describe('occurrences in the event zone', () => {
  it('a weekly 09:00 meeting stays at 09:00 local across DST, with its offset and instant', () => {
    const r = expandRecurrence(
      {
        start: berlin('2026-03-23T09:00:00'),
        end: berlin('2026-03-23T10:00:00'),
        lines: ['RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=10'],
      },
      { ...YEAR_2026, limit: 2 },
    );
    expect(r.occurrences).toEqual([
      {
        recurrenceId: '2026-03-23T08:00:00Z',
        start: {
          local: '2026-03-23T09:00:00',
          offset: '+01:00',
          instant: '2026-03-23T08:00:00Z',
          timeZone: 'Europe/Berlin',
        },
        end: {
          local: '2026-03-23T10:00:00',
          offset: '+01:00',
          instant: '2026-03-23T09:00:00Z',
          timeZone: 'Europe/Berlin',
        },
        overridden: false,
        moved: false,
      },
      {
        recurrenceId: '2026-03-30T07:00:00Z',
        start: {
          local: '2026-03-30T09:00:00',
          offset: '+02:00',
          instant: '2026-03-30T07:00:00Z',
          timeZone: 'Europe/Berlin',
        },
        end: {
          local: '2026-03-30T10:00:00',
          offset: '+02:00',
          instant: '2026-03-30T08:00:00Z',
          timeZone: 'Europe/Berlin',
        },
        overridden: false,
        moved: false,
      },
    ]);
    expect(r.nextCursor).not.toBeNull();
  });

  it('a nonexistent wall time takes the offset before the gap; an ambiguous one its first occurrence', () => {
    const gap = expandRecurrence(
      { start: berlin('2026-03-29T02:30:00'), lines: [] },
      { ...YEAR_2026, limit: 5 },
    );
    expect(local(gap.occurrences[0])).toBe('2026-03-29T03:30:00+02:00');
    const fold = expandRecurrence(
      { start: berlin('2026-10-25T02:30:00'), lines: [] },
      { ...YEAR_2026, limit: 5 },
    );
    expect(local(fold.occurrences[0])).toBe('2026-10-25T02:30:00+02:00');
    expect(fold.occurrences[0].recurrenceId).toBe('2026-10-25T00:30:00Z');
  });

  it('a start stored as the second 02:30 of a fall-back night stays first, and the rule keeps 02:30', () => {
    const r = expandRecurrence(
      {
        start: { dateTime: '2026-10-25T01:30:00Z', timeZone: 'Europe/Berlin' },
        lines: ['RRULE:FREQ=DAILY;COUNT=3'],
      },
      { ...YEAR_2026, limit: 5 },
    );
    expect(r.occurrences.map(local)).toEqual([
      '2026-10-25T02:30:00+01:00',
      '2026-10-26T02:30:00+01:00',
      '2026-10-27T02:30:00+01:00',
    ]);
  });

  it('a start in the spring-forward gap shows as 03:30, and later days keep 02:30', () => {
    const r = expandRecurrence(
      { start: berlin('2026-03-29T02:30:00'), lines: ['RRULE:FREQ=DAILY;COUNT=3'] },
      { ...YEAR_2026, limit: 5 },
    );
    expect(r.occurrences.map(local)).toEqual([
      '2026-03-29T03:30:00+02:00',
      '2026-03-30T02:30:00+02:00',
      '2026-03-31T02:30:00+02:00',
    ]);
  });

  it('a start given as an instant with offset keeps the zone it names', () => {
    const r = expandRecurrence(
      {
        start: { dateTime: '2026-03-27T09:00:00+01:00', timeZone: 'Europe/Berlin' },
        lines: ['RRULE:FREQ=DAILY;COUNT=3'],
      },
      { ...YEAR_2026, limit: 5 },
    );
    expect(r.occurrences.map(local)).toEqual([
      '2026-03-27T09:00:00+01:00',
      '2026-03-28T09:00:00+01:00',
      '2026-03-29T09:00:00+02:00',
    ]);
  });

  it('a start with only an offset recurs at that fixed offset', () => {
    const r = expandRecurrence(
      { start: { dateTime: '2026-03-27T09:00:00+05:00' }, lines: ['RRULE:FREQ=DAILY;COUNT=2'] },
      { ...YEAR_2026, limit: 5 },
    );
    expect(r.occurrences.map((o) => ('timeZone' in o.start ? o.start.timeZone : ''))).toEqual([
      '+05:00',
      '+05:00',
    ]);
    expect(r.occurrences.map(local)).toEqual(['2026-03-27T09:00:00+05:00', '2026-03-28T09:00:00+05:00']);
  });

  it('old dates carry local mean time offsets to the second', () => {
    const r = expandRecurrence(
      { start: berlin('1890-06-01T12:00:00'), lines: [] },
      { from: '1890-01-01T00:00:00Z', to: '1891-01-01T00:00:00Z', limit: 1 },
    );
    expect(r.occurrences[0].start).toMatchObject({ offset: '+00:53:28', instant: '1890-06-01T11:06:32Z' });
  });
});

describe('durations (RFC 5545 3.8.5.3: DTEND is exact, DURATION days are nominal)', () => {
  const days = ['RRULE:FREQ=DAILY;COUNT=3'];

  it('DTEND: every occurrence lasts the same exact time (23 h across spring forward)', () => {
    const r = expandRecurrence(
      { start: berlin('2026-03-28T12:00:00'), end: berlin('2026-03-29T12:00:00'), lines: days },
      { ...YEAR_2026, limit: 5 },
    );
    expect(r.occurrences.map(localEnd)).toEqual([
      '2026-03-29T12:00:00+02:00',
      '2026-03-30T11:00:00+02:00',
      '2026-03-31T11:00:00+02:00',
    ]);
  });

  it('DURATION P1D: the same wall time the next day', () => {
    const r = expandRecurrence(
      { start: berlin('2026-03-28T12:00:00'), duration: 'P1D', lines: days },
      { ...YEAR_2026, limit: 5 },
    );
    expect(r.occurrences.map(localEnd)).toEqual([
      '2026-03-29T12:00:00+02:00',
      '2026-03-30T12:00:00+02:00',
      '2026-03-31T12:00:00+02:00',
    ]);
  });

  it('DURATION PT24H and P1DT1H: hours are exact, days nominal', () => {
    const exact = expandRecurrence(
      { start: berlin('2026-03-28T12:00:00'), duration: 'PT24H', lines: days },
      { ...YEAR_2026, limit: 1 },
    );
    expect(localEnd(exact.occurrences[0])).toBe('2026-03-29T13:00:00+02:00');
    const mixed = expandRecurrence(
      { start: berlin('2026-03-28T12:00:00'), duration: 'P1DT1H', lines: days },
      { ...YEAR_2026, limit: 1 },
    );
    expect(localEnd(mixed.occurrences[0])).toBe('2026-03-29T13:00:00+02:00');
  });

  it('all-day: the end date is exclusive, one day by default, DTEND or P2D otherwise', () => {
    const start = { date: '2026-12-01' };
    const lines = ['RRULE:FREQ=WEEKLY;COUNT=2'];
    const one = expandRecurrence({ start, lines }, { ...YEAR_2026, limit: 5 }).occurrences;
    expect(one.map((o) => [o.start, o.end])).toEqual([
      [{ date: '2026-12-01' }, { date: '2026-12-02' }],
      [{ date: '2026-12-08' }, { date: '2026-12-09' }],
    ]);
    const two = expandRecurrence(
      { start, end: { date: '2026-12-03' }, lines },
      { ...YEAR_2026, limit: 5 },
    ).occurrences;
    expect(two.map(localEnd)).toEqual(['2026-12-03', '2026-12-10']);
    expect(
      expandRecurrence({ start, duration: 'P2D', lines }, { ...YEAR_2026, limit: 5 }).occurrences.map(
        localEnd,
      ),
    ).toEqual(['2026-12-03', '2026-12-10']);
  });

  it('an RDATE PERIOD gives that instance its own end, and wins over a rule instance at the same start', () => {
    const r = expandRecurrence(
      {
        start: { dateTime: '2026-04-01T09:00:00Z' },
        duration: 'PT1H',
        lines: [
          'RRULE:FREQ=DAILY;COUNT=2',
          'RDATE;VALUE=PERIOD:20260402T090000Z/PT3H,20260405T100000Z/20260405T103000Z',
        ],
      },
      { ...YEAR_2026, limit: 5 },
    );
    expect(r.occurrences.map((o) => ('instant' in o.end ? o.end.instant : ''))).toEqual([
      '2026-04-01T10:00:00Z',
      '2026-04-02T12:00:00Z',
      '2026-04-05T10:30:00Z',
    ]);
  });

  it('an occurrence is in range when it overlaps it; a zero-length one when it starts in it', () => {
    const series = {
      start: { dateTime: '2026-04-01T09:00:00Z' },
      duration: 'PT2H',
      lines: ['RRULE:FREQ=DAILY;COUNT=3'],
    };
    expect(ids(series, { from: '2026-04-02T10:59:59Z', to: '2026-04-02T11:00:00Z' })).toEqual([
      '2026-04-02T09:00:00Z',
    ]);
    expect(ids(series, { from: '2026-04-02T11:00:00Z', to: '2026-04-03T09:00:00Z' })).toEqual([]);
    const instant = { start: { dateTime: '2026-04-01T09:00:00Z' }, lines: ['RRULE:FREQ=DAILY;COUNT=3'] };
    expect(ids(instant, { from: '2026-04-02T09:00:00Z', to: '2026-04-02T09:00:01Z' })).toEqual([
      '2026-04-02T09:00:00Z',
    ]);
    expect(ids(instant, { from: '2026-04-02T08:00:00Z', to: '2026-04-02T09:00:00Z' })).toEqual([]);
  });

  it('all-day dates meet the range in the floating zone the caller names', () => {
    const series = { start: { date: '2026-12-01' }, lines: ['RRULE:FREQ=DAILY;COUNT=3'] };
    const range = { from: '2026-12-01T23:30:00Z', to: '2026-12-02T00:30:00Z' };
    expect(ids(series, range)).toEqual(['2026-12-01', '2026-12-02']);
    expect(ids(series, { ...range, floatingTimeZone: 'Asia/Tokyo' })).toEqual(['2026-12-02']);
  });
});

describe('UNTIL, EXDATE and RDATE forms dateutil cannot check', () => {
  it('UNTIL without Z on a zoned series is read as the wall time there', () => {
    expect(
      ids({ start: berlin('2026-03-26T09:00:00'), lines: ['RRULE:FREQ=DAILY;UNTIL=20260330T090000'] }),
    ).toHaveLength(5);
    expect(
      ids({ start: berlin('2026-03-26T09:00:00'), lines: ['RRULE:FREQ=DAILY;UNTIL=20260330T085959'] }),
    ).toHaveLength(4);
  });

  it('UNTIL as a DATE on a timed series includes that whole day', () => {
    expect(
      ids({ start: berlin('2026-03-26T23:00:00'), lines: ['RRULE:FREQ=DAILY;UNTIL=20260330'] }),
    ).toHaveLength(5);
  });

  it('UNTIL as a date-time on an all-day series bounds by its written date and time', () => {
    expect(
      ids({ start: { date: '2026-12-01' }, lines: ['RRULE:FREQ=DAILY;UNTIL=20261203T000000Z'] }),
    ).toEqual(['2026-12-01', '2026-12-02', '2026-12-03']);
  });

  it('EXDATE;VALUE=DATE on a timed series removes every occurrence that starts on that local day', () => {
    expect(
      ids({
        start: berlin('2026-03-26T09:00:00'),
        lines: ['RRULE:FREQ=HOURLY;INTERVAL=8;COUNT=9', 'EXDATE;VALUE=DATE:20260327'],
      }),
    ).toEqual([
      '2026-03-26T08:00:00Z',
      '2026-03-26T16:00:00Z',
      '2026-03-28T00:00:00Z',
      '2026-03-28T08:00:00Z',
      '2026-03-28T16:00:00Z',
      '2026-03-29T00:00:00Z',
    ]);
  });

  it('EXDATE with a time on an all-day series removes its written date', () => {
    expect(
      ids({ start: { date: '2026-12-01' }, lines: ['RRULE:FREQ=DAILY;COUNT=3', 'EXDATE:20261202T000000Z'] }),
    ).toEqual(['2026-12-01', '2026-12-03']);
  });

  it('RDATE;VALUE=DATE on a timed series adds that day at the start time of day', () => {
    expect(ids({ start: berlin('2026-03-26T09:00:00'), lines: ['RDATE;VALUE=DATE:20260401'] })).toEqual([
      '2026-03-26T08:00:00Z',
      '2026-04-01T07:00:00Z',
    ]);
  });

  it('BYSECOND=60 is skipped (no leap seconds); UNTIL second 60 carries to the next minute', () => {
    expect(
      ids({
        start: { dateTime: '2026-04-01T09:00:00Z' },
        lines: ['RRULE:FREQ=MINUTELY;BYSECOND=0,60;COUNT=3'],
      }),
    ).toEqual(['2026-04-01T09:00:00Z', '2026-04-01T09:01:00Z', '2026-04-01T09:02:00Z']);
    expect(
      ids({
        start: { dateTime: '2026-04-01T09:00:00Z' },
        lines: ['RRULE:FREQ=MINUTELY;UNTIL=20260401T090160Z'],
      }),
    ).toHaveLength(3);
  });
});

describe('overrides keyed by RECURRENCE-ID', () => {
  const weekly: RecurrenceSeries = {
    start: berlin('2026-03-23T09:00:00'),
    end: berlin('2026-03-23T10:00:00'),
    lines: ['RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=6'],
  };

  it('a cancelled occurrence disappears', () => {
    const r = ids({ ...weekly, overrides: [{ recurrenceId: '2026-03-30T07:00:00Z', cancelled: true }] });
    expect(r).not.toContain('2026-03-30T07:00:00Z');
    expect(r).toHaveLength(5);
  });

  it('a moved occurrence appears at its new time, in order, with its recurrence id; the id may be a local time', () => {
    const r = expandRecurrence(
      {
        ...weekly,
        overrides: [
          { recurrenceId: '2026-03-30T09:00:00', start: berlin('2026-04-08T14:00:00') },
          {
            recurrenceId: '2026-04-13T09:00:00+02:00',
            start: berlin('2026-04-13T11:00:00'),
            end: berlin('2026-04-13T11:30:00'),
          },
          { recurrenceId: '2026-04-20T07:00:00Z', start: berlin('2026-04-20T09:00:00') },
        ],
      },
      { ...YEAR_2026, limit: 10 },
    ).occurrences;
    expect(r.map((o) => [o.recurrenceId, local(o), localEnd(o), o.overridden, o.moved])).toEqual([
      ['2026-03-23T08:00:00Z', '2026-03-23T09:00:00+01:00', '2026-03-23T10:00:00+01:00', false, false],
      ['2026-04-06T07:00:00Z', '2026-04-06T09:00:00+02:00', '2026-04-06T10:00:00+02:00', false, false],
      ['2026-03-30T07:00:00Z', '2026-04-08T14:00:00+02:00', '2026-04-08T15:00:00+02:00', true, true],
      ['2026-04-13T07:00:00Z', '2026-04-13T11:00:00+02:00', '2026-04-13T11:30:00+02:00', true, true],
      ['2026-04-20T07:00:00Z', '2026-04-20T09:00:00+02:00', '2026-04-20T10:00:00+02:00', true, false],
      ['2026-04-27T07:00:00Z', '2026-04-27T09:00:00+02:00', '2026-04-27T10:00:00+02:00', false, false],
    ]);
  });

  it('a range sees a moved occurrence by its new time', () => {
    const moved = {
      ...weekly,
      overrides: [{ recurrenceId: '2026-03-30T07:00:00Z', start: berlin('2026-06-01T09:00:00') }],
    };
    expect(ids(moved, { from: '2026-03-30T00:00:00Z', to: '2026-03-31T00:00:00Z' })).toEqual([]);
    expect(ids(moved, { from: '2026-06-01T00:00:00Z', to: '2026-06-02T00:00:00Z' })).toEqual([
      '2026-03-30T07:00:00Z',
    ]);
  });

  it('an override for a start that is not an occurrence is reported and ignored', () => {
    const r = expandRecurrence(
      {
        ...weekly,
        lines: [...weekly.lines, 'EXDATE:20260406T070000Z'],
        overrides: [
          { recurrenceId: '2026-03-31T07:00:00Z', start: berlin('2026-04-01T09:00:00') },
          { recurrenceId: '2026-04-06T07:00:00Z', start: berlin('2026-04-07T09:00:00') },
        ],
      },
      { ...YEAR_2026, limit: 10 },
    );
    expect(r.orphanedOverrides).toEqual(['2026-03-31T07:00:00Z', '2026-04-06T07:00:00Z']);
    expect(r.occurrences).toHaveLength(5);
  });

  it('all-day overrides are keyed by date and may move to a timed slot', () => {
    const r = expandRecurrence(
      {
        start: { date: '2026-12-01' },
        lines: ['RRULE:FREQ=DAILY;COUNT=3'],
        overrides: [
          { recurrenceId: '2026-12-02', cancelled: true },
          { recurrenceId: '20261203', start: { date: '2026-12-05' } },
          {
            recurrenceId: '2026-12-01',
            start: berlin('2026-12-01T15:00:00'),
            end: berlin('2026-12-01T16:00:00'),
          },
        ],
      },
      { ...YEAR_2026, limit: 10 },
    ).occurrences;
    expect(r.map((o) => [o.recurrenceId, local(o), localEnd(o)])).toEqual([
      ['2026-12-01', '2026-12-01T15:00:00+01:00', '2026-12-01T16:00:00+01:00'],
      ['2026-12-03', '2026-12-05', '2026-12-06'],
    ]);
  });
});

describe('paging: limit + cursor gives the one-call sequence', () => {
  const series: RecurrenceSeries[] = [
    {
      start: berlin('2026-03-23T09:00:00'),
      end: berlin('2026-03-23T10:00:00'),
      lines: [
        'RRULE:FREQ=WEEKLY;BYDAY=MO,WE;UNTIL=20261231T000000Z',
        'RDATE;TZID=Europe/Berlin:20260401T090000,20260402T120000',
        'EXDATE:20260325T080000Z',
      ],
      overrides: [
        { recurrenceId: '2026-03-30T07:00:00Z', start: berlin('2026-04-01T09:00:00') },
        { recurrenceId: '2026-04-06T07:00:00Z', cancelled: true },
        { recurrenceId: '2026-04-08T07:00:00Z', start: berlin('2026-02-01T09:00:00') },
      ],
    },
    { start: berlin('2026-03-29T00:00:00'), lines: ['RRULE:FREQ=HOURLY;INTERVAL=5;COUNT=200'] },
    {
      start: { date: '2026-01-31' },
      end: { date: '2026-02-02' },
      lines: ['RRULE:FREQ=MONTHLY;BYMONTHDAY=-1,1,15'],
    },
    {
      start: { dateTime: '2026-01-01T00:00:00Z' },
      lines: ['RRULE:FREQ=MINUTELY;INTERVAL=7;BYHOUR=9,10;BYDAY=MO'],
    },
  ];

  it.each(series.map((s, i) => [i, s] as const))('series %i', (_i, s) => {
    const all = expandRecurrence(s, { ...YEAR_2026, limit: 100_000 });
    expect(all.nextCursor).toBeNull();
    expect(all.occurrences.length).toBeGreaterThan(10);
    for (const limit of [1, 2, 3, 7, 50]) {
      const pages: Occurrence[] = [];
      let after: string | null = null;
      for (let n = 0; n < 10_000; n++) {
        const page = expandRecurrence(s, { ...YEAR_2026, limit, after });
        pages.push(...page.occurrences);
        expect(page.occurrences.length).toBeLessThanOrEqual(limit);
        after = page.nextCursor;
        if (!after) break;
      }
      expect(pages).toEqual(all.occurrences);
    }
  });

  it('output is ordered by start, then recurrence id', () => {
    const r = expandRecurrence(series[0], { ...YEAR_2026, limit: 1000 }).occurrences;
    const keys = r.map((o) => `${'instant' in o.start ? o.start.instant : ''} ${o.recurrenceId}`);
    expect([...keys].sort()).toEqual(keys);
    expect(keys.filter((k) => k.startsWith('2026-04-01T07:00:00Z'))).toEqual([
      '2026-04-01T07:00:00Z 2026-03-30T07:00:00Z',
      '2026-04-01T07:00:00Z 2026-04-01T07:00:00Z',
    ]);
  });
});

describe('free/busy intervals', () => {
  const a: RecurrenceSeries = {
    start: berlin('2026-03-23T09:00:00'),
    end: berlin('2026-03-23T10:00:00'),
    lines: ['RRULE:FREQ=WEEKLY;COUNT=5'],
  };
  const b: RecurrenceSeries = { start: { date: '2026-03-25' }, lines: ['RRULE:FREQ=WEEKLY;COUNT=5'] };

  it('yields the same instants as expand, as numbers', () => {
    const intervals = [...occurrenceIntervals(compileRecurrence(a), YEAR_2026)];
    const occ = expandRecurrence(a, { ...YEAR_2026, limit: 100 }).occurrences;
    expect(intervals).toEqual(
      occ.map((o) => ({
        start: Date.parse((o.start as { instant: string }).instant),
        end: Date.parse((o.end as { instant: string }).instant),
      })),
    );
  });

  it('merges many series in start order and marks the ones it cut', () => {
    const r = busyIntervals([a, b, compileRecurrence(a)], {
      ...YEAR_2026,
      floatingTimeZone: 'Europe/Berlin',
      maxPerSeries: 4,
    });
    expect(r.intervals).toHaveLength(12);
    expect(r.intervals.map((i) => i.start)).toEqual(
      [...r.intervals.map((i) => i.start)].sort((x, y) => x - y),
    );
    expect(r.intervals[1]).toEqual({
      series: 2,
      start: Date.parse('2026-03-23T08:00:00Z'),
      end: Date.parse('2026-03-23T09:00:00Z'),
    });
    expect(r.intervals[2]).toEqual({
      series: 1,
      start: Date.parse('2026-03-24T23:00:00Z'),
      end: Date.parse('2026-03-25T23:00:00Z'),
    });
    expect(r.truncated).toEqual([
      { series: 0, reason: 'MAX_PER_SERIES' },
      { series: 1, reason: 'MAX_PER_SERIES' },
      { series: 2, reason: 'MAX_PER_SERIES' },
    ]);
  });
});
