import { expandRecurrence } from '@platform/recurrence';
import { DomainError } from '@platform/envelope';
import { compileStored } from '../recurrence/event-series';
import { DavError } from './dav.errors';
import { readCalendarObject } from './ical-reader';

const cal = (...lines: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//t//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');
const vevent = (...lines: string[]) => [
  'BEGIN:VEVENT',
  'UID:u1',
  'DTSTAMP:20260101T000000Z',
  ...lines,
  'END:VEVENT',
];

const WINDOWS_BERLIN = [
  'BEGIN:VTIMEZONE',
  'TZID:W. Europe Standard Time',
  'BEGIN:STANDARD',
  'DTSTART:16010101T030000',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10',
  'END:STANDARD',
  'BEGIN:DAYLIGHT',
  'DTSTART:16010101T020000',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0200',
  'RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3',
  'END:DAYLIGHT',
  'END:VTIMEZONE',
];

function refusal(text: string): { reason: string; detail?: unknown } {
  try {
    readCalendarObject(text, 'p1');
  } catch (e) {
    if (e instanceof DomainError) return { reason: e.reason, detail: e.details.detail };
    throw e;
  }
  throw new Error('not refused');
}

describe('readCalendarObject', () => {
  it('computes an IANA TZID with the calendar zone data, across the DST change', () => {
    const { uid, fields } = readCalendarObject(
      cal(
        ...vevent(
          'DTSTART;TZID=Europe/Berlin:20261026T090000',
          'DTEND;TZID=Europe/Berlin:20261026T100000',
          'SUMMARY:After DST',
        ),
      ),
      'p1',
    );
    expect(uid).toBe('u1');
    expect(fields.timeZone).toBe('Europe/Berlin');
    expect(fields.startsAt?.toISOString()).toBe('2026-10-26T08:00:00.000Z');
    expect(fields.endsAt?.toISOString()).toBe('2026-10-26T09:00:00.000Z');
    expect(fields.ownerPersonId).toBe('p1');
    expect(fields.personIds).toEqual(['p1']);
    expect(fields.title).toBe('After DST');
  });

  it("reads Mozilla's prefixed TZIDs and X-LIC-LOCATION as the IANA zone they name", () => {
    const prefixed = readCalendarObject(
      cal(...vevent('DTSTART;TZID=/mozilla.org/20050126_1/America/New_York:20260701T090000')),
      'p1',
    );
    expect(prefixed.fields.timeZone).toBe('America/New_York');
    expect(prefixed.fields.startsAt?.toISOString()).toBe('2026-07-01T13:00:00.000Z');
    const located = readCalendarObject(
      cal(
        'BEGIN:VTIMEZONE',
        'TZID:Custom Almaty',
        'X-LIC-LOCATION:Asia/Almaty',
        'BEGIN:STANDARD',
        'DTSTART:19700101T000000',
        'TZOFFSETFROM:+0500',
        'TZOFFSETTO:+0500',
        'END:STANDARD',
        'END:VTIMEZONE',
        ...vevent('DTSTART;TZID=Custom Almaty:20260701T090000'),
      ),
      'p1',
    );
    expect(located.fields.timeZone).toBe('Asia/Almaty');
    expect(located.fields.startsAt?.toISOString()).toBe('2026-07-01T04:00:00.000Z');
  });

  it("places a Windows TZID by the resource's VTIMEZONE, stores UTC and converts its EXDATEs", () => {
    const { fields } = readCalendarObject(
      cal(
        ...WINDOWS_BERLIN,
        ...vevent(
          'DTSTART;TZID=W. Europe Standard Time:20260701T090000',
          'DTEND;TZID=W. Europe Standard Time:20260701T093000',
          'RRULE:FREQ=WEEKLY;UNTIL=20260731T000000Z',
          'EXDATE;TZID=W. Europe Standard Time:20260708T090000',
        ),
      ),
      'p1',
    );
    expect(fields.timeZone).toBeNull();
    expect(fields.startsAt?.toISOString()).toBe('2026-07-01T07:00:00.000Z');
    expect(fields.recurrence).toContain('EXDATE:20260708T070000Z');
    const starts = expandRecurrence(compileStored(fields), {
      from: '2026-07-01T00:00:00Z',
      to: '2026-08-01T00:00:00Z',
      limit: 10,
    }).occurrences.map((o) => ('instant' in o.start ? o.start.instant : o.start.date));
    expect(starts).toEqual([
      '2026-07-01T07:00:00Z',
      '2026-07-15T07:00:00Z',
      '2026-07-22T07:00:00Z',
      '2026-07-29T07:00:00Z',
    ]);
  });

  it('reads all-day dates, DURATION and floating times', () => {
    const day = readCalendarObject(cal(...vevent('DTSTART;VALUE=DATE:20261224')), 'p1').fields;
    expect([day.allDay, day.startDate, day.endDate]).toEqual([true, '2026-12-24', '2026-12-25']);
    const lasting = readCalendarObject(
      cal(...vevent('DTSTART:20261201T100000Z', 'DURATION:PT90M')),
      'p1',
    ).fields;
    expect(lasting.endsAt?.toISOString()).toBe('2026-12-01T11:30:00.000Z');
    const floating = readCalendarObject(cal(...vevent('DTSTART:20261201T100000')), 'p1').fields;
    expect([floating.startsAt?.toISOString(), floating.endsAt?.toISOString()]).toEqual([
      '2026-12-01T10:00:00.000Z',
      '2026-12-01T10:00:00.000Z',
    ]);
  });

  it('indexes a COUNT rule as the same set with UNTIL, and stores where the series ends', () => {
    const text = cal(
      ...vevent(
        'DTSTART;TZID=Europe/Berlin:20261005T090000',
        'DTEND;TZID=Europe/Berlin:20261005T100000',
        'RRULE:FREQ=WEEKLY;COUNT=6;BYDAY=MO',
        'EXDATE;TZID=Europe/Berlin:20261019T090000',
      ),
    );
    const { fields, ical } = readCalendarObject(text, 'p1');
    expect(fields.recurrence[0]).toBe('RRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20261109T080000Z');
    expect(ical).toContain('COUNT=6');
    const withCount = { ...fields, recurrence: ['RRULE:FREQ=WEEKLY;COUNT=6;BYDAY=MO', fields.recurrence[1]] };
    const expand = (f: typeof fields) =>
      expandRecurrence(compileStored(f), {
        from: '2026-01-01T00:00:00Z',
        to: '2027-01-01T00:00:00Z',
        limit: 50,
      }).occurrences.map((o) => o.recurrenceId);
    expect(expand(fields)).toEqual(expand(withCount));
    expect(expand(fields)).toHaveLength(5);
    expect(fields.seriesEndsAt?.toISOString()).toBe('2026-11-09T09:00:00.000Z');
    const open = readCalendarObject(cal(...vevent('DTSTART:20261005T090000Z', 'RRULE:FREQ=DAILY')), 'p1');
    expect(open.fields.seriesEndsAt).toBeNull();
  });

  it('keeps moved and cancelled occurrences as overrides', () => {
    const { fields } = readCalendarObject(
      cal(
        ...vevent('DTSTART:20261201T090000Z', 'DTEND:20261201T100000Z', 'RRULE:FREQ=DAILY;COUNT=5'),
        'BEGIN:VEVENT',
        'UID:u1',
        'DTSTAMP:20260101T000000Z',
        'RECURRENCE-ID:20261202T090000Z',
        'DTSTART:20261202T150000Z',
        'DTEND:20261202T160000Z',
        'END:VEVENT',
        'BEGIN:VEVENT',
        'UID:u1',
        'DTSTAMP:20260101T000000Z',
        'RECURRENCE-ID:20261203T090000Z',
        'DTSTART:20261203T090000Z',
        'STATUS:CANCELLED',
        'END:VEVENT',
      ),
      'p1',
    );
    expect(fields.recurrenceOverrides).toEqual([
      {
        recurrence_id: '2026-12-02T09:00:00Z',
        start: { date_time: '2026-12-02T15:00:00.000Z' },
        end: { date_time: '2026-12-02T16:00:00.000Z' },
      },
      { recurrence_id: '2026-12-03T09:00:00Z', cancelled: true },
    ]);
  });

  it('truncates long text columns but keeps the full text in the stored resource', () => {
    const long = 'x'.repeat(800);
    const { fields, ical } = readCalendarObject(
      cal(...vevent('DTSTART:20261201T090000Z', `SUMMARY:${long}`)),
      'p1',
    );
    expect(fields.title).toHaveLength(500);
    expect(ical.replace(/\r\n /g, '')).toContain(long);
  });

  it.each([
    ['garbage', 'BEGIN:VCALENDAR\r\nnonsense\r\n', DavError.INVALID_CALENDAR_DATA],
    ['no DTSTART', cal(...vevent('SUMMARY:x')), DavError.INVALID_CALENDAR_DATA],
    [
      'two UIDs',
      cal(
        ...vevent('DTSTART:20261201T090000Z'),
        ...vevent('DTSTART:20261202T090000Z').map((l) => l.replace('u1', 'u2')),
      ),
      DavError.INVALID_CALENDAR_DATA,
    ],
    [
      'two masters',
      cal(...vevent('DTSTART:20261201T090000Z'), ...vevent('DTSTART:20261202T090000Z')),
      DavError.INVALID_CALENDAR_DATA,
    ],
    [
      'end before start',
      cal(...vevent('DTSTART:20261201T090000Z', 'DTEND:20261130T090000Z')),
      DavError.INVALID_CALENDAR_DATA,
    ],
    ['impossible date', cal(...vevent('DTSTART:20261332T250000Z')), DavError.INVALID_CALENDAR_DATA],
    [
      'unknown TZID',
      cal(...vevent('DTSTART;TZID=Mars/Olympus:20261201T090000')),
      DavError.INVALID_CALENDAR_DATA,
    ],
    [
      'bad RRULE',
      cal(...vevent('DTSTART:20261201T090000Z', 'RRULE:FREQ=SOMETIMES')),
      DavError.INVALID_CALENDAR_DATA,
    ],
    ['NUL', cal(...vevent('DTSTART:20261201T090000Z', 'SUMMARY:a\u0000b')), DavError.INVALID_CALENDAR_DATA],
    [
      'components nested 20 deep',
      cal(...Array(20).fill('BEGIN:X-A'), ...Array(20).fill('END:X-A')),
      DavError.INVALID_CALENDAR_DATA,
    ],
    [
      '5000 properties in one event',
      cal(...vevent('DTSTART:20261201T090000Z', ...Array.from({ length: 5000 }, (_, i) => `X-P${i}:v`))),
      DavError.INVALID_CALENDAR_DATA,
    ],
    [
      '500 parameters on a property',
      cal(
        ...vevent(
          'DTSTART:20261201T090000Z',
          `X-Q;${Array.from({ length: 500 }, (_, i) => `A${i}=b`).join(';')}:v`,
        ),
      ),
      DavError.INVALID_CALENDAR_DATA,
    ],
    [
      'a VTODO',
      cal('BEGIN:VTODO', 'UID:t', 'DTSTAMP:20260101T000000Z', 'END:VTODO'),
      DavError.UNSUPPORTED_COMPONENT,
    ],
  ])('refuses %s', (_, text, reason) => {
    expect(refusal(text).reason).toBe(reason);
  });
});
