import fc from 'fast-check';
import {
  RecurrenceError,
  RecurrenceErrorCode,
  RecurrenceReason as R,
  compileRecurrence,
  expandRecurrence,
  validateRecurrence,
  type RecurrenceSeries,
} from './index';

const BERLIN = { dateTime: '2026-03-23T09:00:00', timeZone: 'Europe/Berlin' };
const RANGE = { from: '2026-01-01T00:00:00Z', to: '2027-01-01T00:00:00Z', limit: 100 };

function errorOf(fn: () => unknown): RecurrenceError {
  try {
    fn();
  } catch (e) {
    if (e instanceof RecurrenceError) return e;
    throw new Error(`expected a RecurrenceError, got ${String(e)}`, { cause: e });
  }
  throw new Error('expected a RecurrenceError, nothing was thrown');
}

describe('recurrence lines: every malformed line is a RecurrenceError with a reason', () => {
  const cases: Array<[string, R, string?]> = [
    ['RRULE:', R.LINE_SYNTAX],
    ['RRULE', R.LINE_SYNTAX],
    ['', R.LINE_SYNTAX],
    ['RRULE: FREQ=DAILY', R.LINE_SYNTAX],
    ['RRULE:FREQ=DAILY\u0000', R.LINE_SYNTAX],
    ['RRULE:COUNT=5', R.MISSING_FREQ],
    ['RRULE:FREQ=FORTNIGHTLY', R.BAD_VALUE, 'FREQ=FORTNIGHTLY'],
    ['RRULE:FREQ=DAILY;FREQ=WEEKLY', R.DUPLICATE_PART, 'FREQ=WEEKLY'],
    ['RRULE:FREQ=DAILY;COUNT=3;COUNT=4', R.DUPLICATE_PART, 'COUNT=4'],
    ['RRULE:FREQ=DAILY;FOO=1', R.UNKNOWN_PART, 'FOO=1'],
    ['RRULE:FREQ=DAILY;X-NAME=1', R.UNKNOWN_PART],
    ['RRULE:FREQ=DAILY;RSCALE=HEBREW', R.UNSUPPORTED_PART],
    ['RRULE:FREQ=MONTHLY;BYDAY=MO;BYSETPOS=0', R.OUT_OF_RANGE, 'BYSETPOS=0'],
    ['RRULE:FREQ=MONTHLY;BYDAY=MO;BYSETPOS=367', R.OUT_OF_RANGE],
    ['RRULE:FREQ=MONTHLY;BYSETPOS=1', R.BYSETPOS_ALONE, 'BYSETPOS=1'],
    ['RRULE:FREQ=DAILY;COUNT=1e12', R.BAD_VALUE, 'COUNT=1E12'],
    ['RRULE:FREQ=DAILY;COUNT=0', R.OUT_OF_RANGE],
    ['RRULE:FREQ=DAILY;COUNT=-1', R.BAD_VALUE],
    ['RRULE:FREQ=DAILY;COUNT=99999999999999999', R.BAD_VALUE],
    ['RRULE:FREQ=DAILY;INTERVAL=0', R.OUT_OF_RANGE],
    ['RRULE:FREQ=DAILY;INTERVAL=9999999999', R.OUT_OF_RANGE],
    ['RRULE:FREQ=DAILY;INTERVAL=1.5', R.BAD_VALUE],
    ['RRULE:FREQ=DAILY;INTERVAL=', R.BAD_VALUE],
    ['RRULE:FREQ=DAILY;COUNT=2;UNTIL=20260101T000000Z', R.COUNT_WITH_UNTIL],
    ['RRULE:FREQ=DAILY;UNTIL=20260231T000000Z', R.BAD_VALUE],
    ['RRULE:FREQ=DAILY;UNTIL=2026', R.BAD_VALUE],
    ['RRULE:FREQ=DAILY;UNTIL=20260101T250000Z', R.BAD_VALUE],
    ['RRULE:FREQ=DAILY;BYHOUR=24', R.OUT_OF_RANGE],
    ['RRULE:FREQ=DAILY;BYHOUR=-1', R.BAD_VALUE],
    ['RRULE:FREQ=DAILY;BYMINUTE=60', R.OUT_OF_RANGE],
    ['RRULE:FREQ=DAILY;BYSECOND=61', R.OUT_OF_RANGE],
    ['RRULE:FREQ=YEARLY;BYMONTH=13', R.OUT_OF_RANGE],
    ['RRULE:FREQ=YEARLY;BYMONTH=0', R.OUT_OF_RANGE],
    ['RRULE:FREQ=MONTHLY;BYMONTHDAY=32', R.OUT_OF_RANGE],
    ['RRULE:FREQ=MONTHLY;BYMONTHDAY=0', R.OUT_OF_RANGE],
    ['RRULE:FREQ=MONTHLY;BYMONTHDAY=-32', R.OUT_OF_RANGE],
    ['RRULE:FREQ=YEARLY;BYYEARDAY=367', R.OUT_OF_RANGE],
    ['RRULE:FREQ=YEARLY;BYWEEKNO=54', R.OUT_OF_RANGE],
    ['RRULE:FREQ=MONTHLY;BYDAY=0MO', R.OUT_OF_RANGE],
    ['RRULE:FREQ=YEARLY;BYDAY=54MO', R.OUT_OF_RANGE],
    ['RRULE:FREQ=MONTHLY;BYDAY=XX', R.BAD_VALUE],
    ['RRULE:FREQ=MONTHLY;BYDAY=+MO', R.BAD_VALUE],
    ['RRULE:FREQ=MONTHLY;BYDAY=MO,,TU', R.BAD_VALUE],
    ['RRULE:FREQ=MONTHLY;BYDAY=MO TU', R.LINE_SYNTAX],
    ['RRULE:FREQ=DAILY;BYWEEKNO=1', R.PART_NOT_ALLOWED, 'BYWEEKNO=1'],
    ['RRULE:FREQ=WEEKLY;BYMONTHDAY=1', R.PART_NOT_ALLOWED],
    ['RRULE:FREQ=MONTHLY;BYYEARDAY=1', R.PART_NOT_ALLOWED],
    ['RRULE:FREQ=DAILY;BYYEARDAY=1', R.PART_NOT_ALLOWED],
    ['RRULE:FREQ=WEEKLY;BYDAY=1MO', R.PART_NOT_ALLOWED],
    ['RRULE:FREQ=DAILY;BYDAY=-1FR', R.PART_NOT_ALLOWED],
    ['RRULE:FREQ=YEARLY;BYWEEKNO=1;BYDAY=1MO', R.PART_NOT_ALLOWED],
    ['RRULE:FREQ=DAILY;WKST=XX', R.BAD_VALUE],
    ['RRULE:FREQ=DAILY;;COUNT=2', R.BAD_VALUE],
    ['RRULE:FREQ=DAILY;COUNT', R.BAD_VALUE],
    ['RRULE:FREQ=DAILY;COUNT==2', R.BAD_VALUE],
    ['RRULE;TZID=UTC:FREQ=DAILY', R.BAD_PARAMETER],
    ['DTSTART:20260101T000000Z', R.UNKNOWN_PROPERTY, 'DTSTART'],
    ['XRULE:FREQ=DAILY', R.UNKNOWN_PROPERTY],
    ['EXDATE;TZID=Mars/Olympus:20261207T090000', R.UNKNOWN_TIME_ZONE, 'TZID=Mars/Olympus'],
    ['EXDATE;TZID=../../etc/passwd:20261207T090000', R.UNKNOWN_TIME_ZONE],
    ['EXDATE;TZID=Europe/Berlin:20261207T090000Z', R.BAD_VALUE],
    ['EXDATE:20261307T090000', R.BAD_VALUE],
    ['EXDATE:20261207T090000,', R.BAD_VALUE],
    ['EXDATE;VALUE=DATE:20261207T090000', R.BAD_VALUE],
    ['EXDATE;VALUE=PERIOD:20261207T090000Z/PT1H', R.BAD_PARAMETER],
    ['RDATE;VALUE=PERIOD:20261207T090000Z/20261207T080000Z', R.END_BEFORE_START],
    ['RDATE;VALUE=PERIOD:20261207T090000Z/XYZ', R.BAD_VALUE],
    ['RDATE;VALUE=PERIOD:20261207T090000Z/-PT1H', R.BAD_VALUE],
    ['RDATE;VALUE=PERIOD:20261207T090000Z', R.BAD_VALUE],
    ['RDATE;VALUE=TEXT:hello', R.BAD_PARAMETER],
    ['RDATE;TZID=Europe/Berlin;TZID=UTC:20261207T090000', R.BAD_PARAMETER],
    ['RDATE;TZID="Europe/Berlin:20261207T090000', R.BAD_PARAMETER],
    ['__proto__:FREQ=DAILY', R.LINE_SYNTAX],
    ['RRULE:FREQ=DAILY;__PROTO__=1', R.UNKNOWN_PART],
  ];

  it.each(cases.map(([l, r, p]) => [l, r, p ?? null] as const))('%s -> %s', (line, reason, part) => {
    const e = errorOf(() => compileRecurrence({ start: BERLIN, lines: [line] }));
    expect(e.code).toBe(RecurrenceErrorCode.INVALID);
    expect(e.reason).toBe(reason);
    expect(e.line).toBe(0);
    if (part !== null) expect(e.part).toBe(part);
    const v = validateRecurrence(['RRULE:FREQ=DAILY', line]);
    expect(v).toMatchObject({ valid: false, error: { code: RecurrenceErrorCode.INVALID, reason, line: 1 } });
  });

  it('accepts names, parts and values in any case, quoted TZIDs, folded lines and X- parameters', () => {
    const lines = [
      'rrule:freq=weekly;byday=mo,We;count=3',
      'EXDATE;tzid="Europe/Berlin":20260330T090000',
      'RDATE;X-FOO=bar;VALUE=DATE-TIME:2026\r\n 0401T100000Z',
      'RRULE;X-ORIGIN=google:FREQ=YEARLY;COUNT=1;',
    ];
    expect(validateRecurrence(lines)).toEqual({ valid: true });
    const r = expandRecurrence({ start: BERLIN, lines }, RANGE);
    expect(r.occurrences.map((o) => o.recurrenceId)).toEqual([
      '2026-03-23T08:00:00Z',
      '2026-03-25T08:00:00Z',
      '2026-04-01T10:00:00Z',
    ]);
  });

  it('bounds the size of what it parses', () => {
    const tooMany = Array.from({ length: 101 }, () => 'RRULE:FREQ=DAILY');
    expect(errorOf(() => compileRecurrence({ start: BERLIN, lines: tooMany })).reason).toBe(R.TOO_LARGE);
    const long = `RRULE:FREQ=DAILY;BYHOUR=${'1,'.repeat(9000)}1`;
    expect(errorOf(() => compileRecurrence({ start: BERLIN, lines: [long] })).reason).toBe(R.TOO_LARGE);
    const dates = Array.from({ length: 1001 }, () => '20260101T000000Z').join(',');
    const manyDates = Array.from({ length: 10 }, () => `RDATE:${dates}`);
    expect(errorOf(() => compileRecurrence({ start: BERLIN, lines: manyDates })).reason).toBe(R.TOO_LARGE);
    const e = errorOf(() => compileRecurrence({ start: BERLIN, lines: [`RRULE:FREQ=${'X'.repeat(5000)}`] }));
    expect(e.part?.length).toBeLessThanOrEqual(100);
  });

  it('refuses values that are not lines', () => {
    for (const lines of [[123], [null], 'RRULE:FREQ=DAILY', { 0: 'RRULE:FREQ=DAILY' }]) {
      const e = errorOf(() => compileRecurrence({ start: BERLIN, lines: lines as unknown as string[] }));
      expect(e.reason).toBe(R.LINE_SYNTAX);
    }
  });
});

describe('series, range, cursor and overrides: bad input is a RecurrenceError', () => {
  const series = (over: Partial<RecurrenceSeries>): RecurrenceSeries => ({
    start: BERLIN,
    lines: ['RRULE:FREQ=DAILY'],
    ...over,
  });
  const cases: Array<[string, () => unknown, RecurrenceErrorCode, R]> = [
    [
      'start missing',
      () => compileRecurrence(series({ start: undefined as never })),
      RecurrenceErrorCode.INVALID_START,
      R.BAD_VALUE,
    ],
    [
      'start both kinds',
      () =>
        compileRecurrence(
          series({ start: { date: '2026-01-01', dateTime: '2026-01-01T00:00:00Z' } as never }),
        ),
      RecurrenceErrorCode.INVALID_START,
      R.BAD_VALUE,
    ],
    [
      'start impossible date',
      () => compileRecurrence(series({ start: { date: '2026-02-30' } })),
      RecurrenceErrorCode.INVALID_START,
      R.BAD_VALUE,
    ],
    [
      'start year 0',
      () => compileRecurrence(series({ start: { date: '0000-01-01' } })),
      RecurrenceErrorCode.INVALID_START,
      R.BAD_VALUE,
    ],
    [
      'start unknown zone',
      () =>
        compileRecurrence(series({ start: { dateTime: '2026-01-01T09:00:00', timeZone: 'Nowhere/Land' } })),
      RecurrenceErrorCode.INVALID_START,
      R.UNKNOWN_TIME_ZONE,
    ],
    [
      'start floating',
      () => compileRecurrence(series({ start: { dateTime: '2026-01-01T09:00:00' } })),
      RecurrenceErrorCode.INVALID_START,
      R.UNKNOWN_TIME_ZONE,
    ],
    [
      'start fractional second',
      () => compileRecurrence(series({ start: { dateTime: '2026-01-01T09:00:00.5Z' } })),
      RecurrenceErrorCode.INVALID_START,
      R.BAD_VALUE,
    ],
    [
      'end before start',
      () =>
        compileRecurrence(series({ end: { dateTime: '2026-03-23T08:00:00', timeZone: 'Europe/Berlin' } })),
      RecurrenceErrorCode.INVALID_START,
      R.END_BEFORE_START,
    ],
    [
      'end of another kind',
      () => compileRecurrence(series({ end: { date: '2026-03-24' } })),
      RecurrenceErrorCode.INVALID_START,
      R.MIXED_VALUE_TYPES,
    ],
    [
      'end and duration',
      () => compileRecurrence(series({ end: BERLIN, duration: 'PT1H' })),
      RecurrenceErrorCode.INVALID_START,
      R.BAD_VALUE,
    ],
    [
      'negative duration',
      () => compileRecurrence(series({ duration: '-PT1H' })),
      RecurrenceErrorCode.INVALID_START,
      R.BAD_VALUE,
    ],
    [
      'hours on an all-day series',
      () => compileRecurrence(series({ start: { date: '2026-01-01' }, duration: 'PT5H' })),
      RecurrenceErrorCode.INVALID_START,
      R.BAD_VALUE,
    ],
    [
      'BYHOUR on an all-day series',
      () =>
        compileRecurrence(series({ start: { date: '2026-01-01' }, lines: ['RRULE:FREQ=DAILY;BYHOUR=9'] })),
      RecurrenceErrorCode.INVALID,
      R.TIME_ON_DATE_SERIES,
    ],
    [
      'HOURLY on an all-day series',
      () => compileRecurrence(series({ start: { date: '2026-01-01' }, lines: ['RRULE:FREQ=HOURLY'] })),
      RecurrenceErrorCode.INVALID,
      R.TIME_ON_DATE_SERIES,
    ],
    [
      'from after to',
      () => expandRecurrence(series({}), { ...RANGE, from: RANGE.to, to: RANGE.from }),
      RecurrenceErrorCode.INVALID_RANGE,
      R.OUT_OF_RANGE,
    ],
    [
      'from without offset',
      () => expandRecurrence(series({}), { ...RANGE, from: '2026-01-01T00:00:00' }),
      RecurrenceErrorCode.INVALID_RANGE,
      R.BAD_VALUE,
    ],
    [
      'to as NaN',
      () => expandRecurrence(series({}), { ...RANGE, to: Number.NaN }),
      RecurrenceErrorCode.INVALID_RANGE,
      R.OUT_OF_RANGE,
    ],
    [
      'to as an invalid Date',
      () => expandRecurrence(series({}), { ...RANGE, to: new Date('x') }),
      RecurrenceErrorCode.INVALID_RANGE,
      R.OUT_OF_RANGE,
    ],
    [
      'to beyond 9999',
      () => expandRecurrence(series({}), { ...RANGE, to: 8.64e15 }),
      RecurrenceErrorCode.INVALID_RANGE,
      R.OUT_OF_RANGE,
    ],
    [
      'limit 0',
      () => expandRecurrence(series({}), { ...RANGE, limit: 0 }),
      RecurrenceErrorCode.INVALID_RANGE,
      R.OUT_OF_RANGE,
    ],
    [
      'limit 1e9',
      () => expandRecurrence(series({}), { ...RANGE, limit: 1e9 }),
      RecurrenceErrorCode.INVALID_RANGE,
      R.OUT_OF_RANGE,
    ],
    [
      'limit 1.5',
      () => expandRecurrence(series({}), { ...RANGE, limit: 1.5 }),
      RecurrenceErrorCode.INVALID_RANGE,
      R.OUT_OF_RANGE,
    ],
    [
      'maxIterations 0',
      () => expandRecurrence(series({}), { ...RANGE, maxIterations: 0 }),
      RecurrenceErrorCode.INVALID_RANGE,
      R.OUT_OF_RANGE,
    ],
    [
      'floating zone unknown',
      () => expandRecurrence(series({}), { ...RANGE, floatingTimeZone: 'X/Y' }),
      RecurrenceErrorCode.INVALID_RANGE,
      R.UNKNOWN_TIME_ZONE,
    ],
    [
      'cursor garbage',
      () => expandRecurrence(series({}), { ...RANGE, after: 'not a cursor!' }),
      RecurrenceErrorCode.INVALID_CURSOR,
      R.BAD_VALUE,
    ],
    [
      'cursor of another shape',
      () => expandRecurrence(series({}), { ...RANGE, after: Buffer.from('r1:x:y').toString('base64url') }),
      RecurrenceErrorCode.INVALID_CURSOR,
      R.BAD_VALUE,
    ],
    [
      'override without id',
      () => compileRecurrence(series({ overrides: [{ cancelled: true } as never] })),
      RecurrenceErrorCode.INVALID_OVERRIDE,
      R.BAD_VALUE,
    ],
    [
      'override id a date on a timed series',
      () => compileRecurrence(series({ overrides: [{ recurrenceId: '2026-03-24', cancelled: true }] })),
      RecurrenceErrorCode.INVALID_OVERRIDE,
      R.BAD_VALUE,
    ],
    [
      'override id twice',
      () =>
        compileRecurrence(
          series({
            overrides: [
              { recurrenceId: '2026-03-24T08:00:00Z', cancelled: true },
              { recurrenceId: '2026-03-24T09:00:00+01:00', cancelled: true },
            ],
          }),
        ),
      RecurrenceErrorCode.INVALID_OVERRIDE,
      R.DUPLICATE_RECURRENCE_ID,
    ],
    [
      'override cancelled "yes"',
      () =>
        compileRecurrence(
          series({ overrides: [{ recurrenceId: '2026-03-24T08:00:00Z', cancelled: 'yes' } as never] }),
        ),
      RecurrenceErrorCode.INVALID_OVERRIDE,
      R.BAD_VALUE,
    ],
    [
      'moved override without start',
      () => compileRecurrence(series({ overrides: [{ recurrenceId: '2026-03-24T08:00:00Z' } as never] })),
      RecurrenceErrorCode.INVALID_OVERRIDE,
      R.BAD_VALUE,
    ],
  ];

  it.each(cases)('%s', (_name, fn, code, reason) => {
    const e = errorOf(fn);
    expect([e.code, e.reason]).toEqual([code, reason]);
  });
});

describe('rules that never end, or never match, still end', () => {
  const from = '2026-01-01T00:00:00Z';

  it.each([['RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30'], ['RRULE:FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=31']])(
    '%s ends at year 9999 with DTSTART alone',
    (line) => {
      const r = expandRecurrence(
        { start: { dateTime: '2026-06-01T09:00:00Z' }, lines: [line] },
        { from, to: '9999-12-31T00:00:00Z', limit: 10 },
      );
      expect(r.occurrences.map((o) => o.recurrenceId)).toEqual(['2026-06-01T09:00:00Z']);
      expect(r).toMatchObject({ nextCursor: null, truncated: null });
    },
  );

  it.each([
    ['RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30'],
    ['RRULE:FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30'],
    ['RRULE:FREQ=HOURLY;INTERVAL=24;BYHOUR=5'],
    ['RRULE:FREQ=MINUTELY;INTERVAL=60;BYMINUTE=30'],
    ['RRULE:FREQ=DAILY;INTERVAL=7;BYDAY=TU'],
  ])('%s stops after the empty-iteration cap and says so', (line) => {
    const r = expandRecurrence(
      { start: { dateTime: '2026-06-01T09:00:00Z' }, lines: [line] },
      { from, to: '9999-12-31T00:00:00Z', limit: 10 },
    );
    expect(r.occurrences.map((o) => o.recurrenceId)).toEqual(['2026-06-01T09:00:00Z']);
    expect(r.truncated).toBe('EMPTY_ITERATION_CAP');
  });

  it('an empty rule over a short range ends at the range without reaching the cap', () => {
    const r = expandRecurrence(
      { start: { dateTime: '2026-06-01T09:00:00Z' }, lines: ['RRULE:FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30'] },
      { from: '2030-01-01T00:00:00Z', to: '2030-01-08T00:00:00Z', limit: 10 },
    );
    expect(r).toMatchObject({ occurrences: [], truncated: null, nextCursor: null });
  });

  it('COUNT=1e12 (written out) is accepted and bounded by the iteration cap', () => {
    const r = expandRecurrence(
      { start: { dateTime: '2026-01-01T00:00:00Z' }, lines: ['RRULE:FREQ=SECONDLY;COUNT=1000000000000'] },
      { from: '2030-01-01T00:00:00Z', to: '2030-01-02T00:00:00Z', limit: 10 },
    );
    expect(r.occurrences).toEqual([]);
    expect(r.truncated).toBe('ITERATION_CAP');
  });

  it('without COUNT a far range is reached directly', () => {
    const r = expandRecurrence(
      { start: { dateTime: '2026-01-01T00:00:00Z' }, lines: ['RRULE:FREQ=SECONDLY'] },
      { from: '9000-01-01T00:00:00Z', to: '9000-01-01T00:01:00Z', limit: 100 },
    );
    expect(r.occurrences).toHaveLength(60);
    expect(r.occurrences[0].recurrenceId).toBe('9000-01-01T00:00:00Z');
    expect(r.truncated).toBeNull();
  });

  it('a huge INTERVAL ends after DTSTART', () => {
    const r = expandRecurrence(
      {
        start: { dateTime: '2026-01-01T00:00:00Z' },
        lines: ['RRULE:FREQ=YEARLY;INTERVAL=2147483647', 'RRULE:FREQ=SECONDLY;INTERVAL=2147483647;COUNT=5'],
      },
      { from, to: '9999-01-01T00:00:00Z', limit: 100 },
    );
    expect(r.occurrences.map((o) => o.recurrenceId)).toEqual([
      '2026-01-01T00:00:00Z',
      '2094-01-19T03:14:07Z',
      '2162-02-07T06:28:14Z',
      '2230-02-26T09:42:21Z',
      '2298-03-16T12:56:28Z',
    ]);
  });

  it('a rule that excludes everything it makes is stopped by the iteration cap', () => {
    const r = expandRecurrence(
      { start: { dateTime: '2026-01-01T00:00:00Z' }, lines: ['RRULE:FREQ=SECONDLY', 'EXRULE:FREQ=SECONDLY'] },
      { from, to: '2027-01-01T00:00:00Z', limit: 10, maxIterations: 200_000 },
    );
    expect(r).toMatchObject({ occurrences: [], truncated: 'ITERATION_CAP' });
  });

  it('a huge period walked one candidate at a time is still bounded (COUNT forbids skipping ahead)', () => {
    const all = (n: number) => Array.from({ length: n }, (_, i) => i).join(',');
    const r = expandRecurrence(
      {
        start: { dateTime: '2026-01-01T00:00:00Z' },
        lines: [
          `RRULE:FREQ=YEARLY;COUNT=1000000000;BYMONTH=1,2,3,4,5,6,7,8,9,10,11,12;BYHOUR=${all(24)};BYMINUTE=${all(60)};BYSECOND=${all(60)}`,
        ],
      },
      { from: '2027-01-01T00:00:00Z', to: '2027-01-02T00:00:00Z', limit: 10, maxIterations: 300_000 },
    );
    expect(r).toMatchObject({ occurrences: [], truncated: 'ITERATION_CAP' });
  });

  it('a huge period (every second of every day of the year, BYSETPOS) is not materialised', () => {
    const all = (n: number) => Array.from({ length: n }, (_, i) => i).join(',');
    const r = expandRecurrence(
      {
        start: { dateTime: '2026-01-01T00:00:00Z' },
        lines: [
          `RRULE:FREQ=YEARLY;BYMONTH=1,2,3,4,5,6,7,8,9,10,11,12;BYMONTHDAY=${all(32).slice(2)};BYHOUR=${all(24)};BYMINUTE=${all(60)};BYSECOND=${all(60)};BYSETPOS=-1,1`,
        ],
      },
      { from, to: '2029-01-01T00:00:00Z', limit: 10 },
    );
    expect(r.occurrences.map((o) => o.recurrenceId)).toEqual([
      '2026-01-01T00:00:00Z',
      '2026-12-31T23:59:59Z',
      '2027-01-01T00:00:00Z',
      '2027-12-31T23:59:59Z',
      '2028-01-01T00:00:00Z',
      '2028-12-31T23:59:59Z',
    ]);
  });
});

describe('random input never throws anything but a RecurrenceError', () => {
  const token = fc.constantFrom(
    'RRULE:',
    'EXRULE:',
    'RDATE:',
    'EXDATE:',
    'RDATE;VALUE=PERIOD:',
    'EXDATE;TZID=Europe/Berlin:',
    'RDATE;VALUE=DATE:',
    'FREQ=',
    'YEARLY',
    'MONTHLY',
    'WEEKLY',
    'DAILY',
    'HOURLY',
    'MINUTELY',
    'SECONDLY',
    ';',
    ',',
    '=',
    ':',
    '/',
    'COUNT=',
    'UNTIL=',
    'INTERVAL=',
    'BYSETPOS=',
    'BYDAY=',
    'BYMONTHDAY=',
    'BYYEARDAY=',
    'BYWEEKNO=',
    'BYMONTH=',
    'BYHOUR=',
    'BYMINUTE=',
    'BYSECOND=',
    'WKST=',
    'MO',
    'SU',
    '-1',
    '+2',
    '0',
    '1',
    '53',
    '366',
    '60',
    '999999999999',
    '20260329T023000',
    '20261025T023000Z',
    '20260229',
    'PT1H',
    'P1D',
    'Z',
    'T',
    '"',
    ' ',
    '\u0000',
    '\ud800',
  );
  const line = fc.array(token, { maxLength: 12 }).map((t) => t.join(''));

  it('validateRecurrence answers, and expandRecurrence answers or throws a RecurrenceError', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 4 }), fc.boolean(), (lines, allDay) => {
        const start = allDay
          ? { date: '2026-03-29' }
          : { dateTime: '2026-03-29T02:30:00', timeZone: 'Europe/Berlin' };
        expect(typeof validateRecurrence(lines, start).valid).toBe('boolean');
        try {
          const r = expandRecurrence(
            { start, lines },
            { from: '2026-01-01T00:00:00Z', to: '2027-01-01T00:00:00Z', limit: 50, maxIterations: 50_000 },
          );
          expect(r.occurrences.length).toBeLessThanOrEqual(50);
        } catch (e) {
          if (!(e instanceof RecurrenceError)) throw e;
        }
      }),
      { numRuns: 400, seed: 5545 },
    );
  });

  it('rules made of valid parts in random combinations expand or are refused, never hang', () => {
    const part = fc.oneof(
      fc.constantFrom(
        'INTERVAL=1',
        'INTERVAL=3',
        'COUNT=5',
        'UNTIL=20270101T000000Z',
        'WKST=SU',
        'BYSETPOS=-1',
        'BYSETPOS=2',
      ),
      fc.constantFrom(
        'BYDAY=MO,FR',
        'BYDAY=-1SU',
        'BYDAY=2TU',
        'BYMONTHDAY=31',
        'BYMONTHDAY=-1,15',
        'BYYEARDAY=60,-1',
      ),
      fc.constantFrom(
        'BYWEEKNO=1,-1',
        'BYWEEKNO=53',
        'BYMONTH=2',
        'BYMONTH=2,3',
        'BYHOUR=2',
        'BYMINUTE=30',
        'BYSECOND=0,60',
      ),
    );
    const freq = fc.constantFrom('YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY', 'HOURLY', 'MINUTELY', 'SECONDLY');
    fc.assert(
      fc.property(
        freq,
        fc.uniqueArray(part, { maxLength: 5, selector: (p) => p.split('=')[0] }),
        (f, parts) => {
          const lines = [`RRULE:FREQ=${f}${parts.map((p) => `;${p}`).join('')}`];
          try {
            expandRecurrence(
              { start: { dateTime: '2026-03-29T02:30:00', timeZone: 'Europe/Berlin' }, lines },
              {
                from: '2026-01-01T00:00:00Z',
                to: '2036-01-01T00:00:00Z',
                limit: 200,
                maxIterations: 200_000,
              },
            );
          } catch (e) {
            if (!(e instanceof RecurrenceError)) throw e;
          }
        },
      ),
      { numRuns: 300, seed: 3310 },
    );
  });
});
