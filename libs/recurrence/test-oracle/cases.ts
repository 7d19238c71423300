/**
 * Recurrence cases checked against python-dateutil (test-oracle/dateutil_oracle.py) by
 * src/dateutil-oracle.spec.ts, and timed against npm rrule by bench/recurrence.bench.ts.
 *
 * Each case lists at most `max` occurrences starting before `to`, as UTC instants (timed series) or
 * dates (all-day series). Where dateutil departs from RFC 5545, `rfc` holds the RFC answer (the one
 * the engine must give) and why; the spec also checks that dateutil still answers differently.
 */
import type { EventTime } from '../src/recurrence.types';

export interface OracleCase {
  id: string;
  start: EventTime;
  lines: string[];
  max: number;
  to?: string;
  rfc?: { expected: string[]; why: string };
}

const NY = 'America/New_York';
const ny = (wall: string): EventTime => ({ dateTime: wall, timeZone: NY });
const berlin = (wall: string): EventTime => ({ dateTime: wall, timeZone: 'Europe/Berlin' });
const utc = (wall: string): EventTime => ({ dateTime: `${wall}Z` });
const day = (date: string): EventTime => ({ date });

/** RFC 5545 section 3.8.5.3, every example, in its order (DTSTART in America/New_York). */
const rfcExamples: OracleCase[] = [
  { id: 'rfc-01 daily x10', start: ny('1997-09-02T09:00:00'), lines: ['RRULE:FREQ=DAILY;COUNT=10'], max: 50 },
  {
    id: 'rfc-02 daily until 1997-12-24',
    start: ny('1997-09-02T09:00:00'),
    lines: ['RRULE:FREQ=DAILY;UNTIL=19971224T000000Z'],
    max: 200,
  },
  {
    id: 'rfc-03 every other day',
    start: ny('1997-09-02T09:00:00'),
    lines: ['RRULE:FREQ=DAILY;INTERVAL=2'],
    max: 60,
  },
  {
    id: 'rfc-04 every 10 days x5',
    start: ny('1997-09-02T09:00:00'),
    lines: ['RRULE:FREQ=DAILY;INTERVAL=10;COUNT=5'],
    max: 50,
  },
  {
    id: 'rfc-05 every day in January for 3 years (yearly)',
    start: ny('1998-01-01T09:00:00'),
    lines: ['RRULE:FREQ=YEARLY;UNTIL=20000131T140000Z;BYMONTH=1;BYDAY=SU,MO,TU,WE,TH,FR,SA'],
    max: 200,
  },
  {
    id: 'rfc-06 every day in January for 3 years (daily)',
    start: ny('1998-01-01T09:00:00'),
    lines: ['RRULE:FREQ=DAILY;UNTIL=20000131T140000Z;BYMONTH=1'],
    max: 200,
  },
  {
    id: 'rfc-07 weekly x10',
    start: ny('1997-09-02T09:00:00'),
    lines: ['RRULE:FREQ=WEEKLY;COUNT=10'],
    max: 50,
  },
  {
    id: 'rfc-08 weekly until 1997-12-24',
    start: ny('1997-09-02T09:00:00'),
    lines: ['RRULE:FREQ=WEEKLY;UNTIL=19971224T000000Z'],
    max: 50,
  },
  {
    id: 'rfc-09 every other week',
    start: ny('1997-09-02T09:00:00'),
    lines: ['RRULE:FREQ=WEEKLY;INTERVAL=2;WKST=SU'],
    max: 30,
  },
  {
    id: 'rfc-10 weekly TU,TH for five weeks (until)',
    start: ny('1997-09-02T09:00:00'),
    lines: ['RRULE:FREQ=WEEKLY;UNTIL=19971007T000000Z;WKST=SU;BYDAY=TU,TH'],
    max: 50,
  },
  {
    id: 'rfc-11 weekly TU,TH for five weeks (count)',
    start: ny('1997-09-02T09:00:00'),
    lines: ['RRULE:FREQ=WEEKLY;COUNT=10;WKST=SU;BYDAY=TU,TH'],
    max: 50,
  },
  {
    id: 'rfc-12 every other week MO,WE,FR until 1997-12-24',
    start: ny('1997-09-01T09:00:00'),
    lines: ['RRULE:FREQ=WEEKLY;INTERVAL=2;UNTIL=19971224T000000Z;WKST=SU;BYDAY=MO,WE,FR'],
    max: 100,
  },
  {
    id: 'rfc-13 every other week TU,TH x8',
    start: ny('1997-09-02T09:00:00'),
    lines: ['RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=8;WKST=SU;BYDAY=TU,TH'],
    max: 50,
  },
  {
    id: 'rfc-14 monthly first Friday x10',
    start: ny('1997-09-05T09:00:00'),
    lines: ['RRULE:FREQ=MONTHLY;COUNT=10;BYDAY=1FR'],
    max: 50,
  },
  {
    id: 'rfc-15 monthly first Friday until 1997-12-24',
    start: ny('1997-09-05T09:00:00'),
    lines: ['RRULE:FREQ=MONTHLY;UNTIL=19971224T000000Z;BYDAY=1FR'],
    max: 50,
  },
  {
    id: 'rfc-16 every other month first and last Sunday x10',
    start: ny('1997-09-07T09:00:00'),
    lines: ['RRULE:FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU'],
    max: 50,
  },
  {
    id: 'rfc-17 monthly second-to-last Monday x6',
    start: ny('1997-09-22T09:00:00'),
    lines: ['RRULE:FREQ=MONTHLY;COUNT=6;BYDAY=-2MO'],
    max: 50,
  },
  {
    id: 'rfc-18 monthly third-to-last day',
    start: ny('1997-09-28T09:00:00'),
    lines: ['RRULE:FREQ=MONTHLY;BYMONTHDAY=-3'],
    max: 24,
  },
  {
    id: 'rfc-19 monthly 2nd and 15th x10',
    start: ny('1997-09-02T09:00:00'),
    lines: ['RRULE:FREQ=MONTHLY;COUNT=10;BYMONTHDAY=2,15'],
    max: 50,
  },
  {
    id: 'rfc-20 monthly first and last day x10',
    start: ny('1997-09-30T09:00:00'),
    lines: ['RRULE:FREQ=MONTHLY;COUNT=10;BYMONTHDAY=1,-1'],
    max: 50,
  },
  {
    id: 'rfc-21 every 18 months 10th-15th x10',
    start: ny('1997-09-10T09:00:00'),
    lines: ['RRULE:FREQ=MONTHLY;INTERVAL=18;COUNT=10;BYMONTHDAY=10,11,12,13,14,15'],
    max: 50,
  },
  {
    id: 'rfc-22 every Tuesday every other month',
    start: ny('1997-09-02T09:00:00'),
    lines: ['RRULE:FREQ=MONTHLY;INTERVAL=2;BYDAY=TU'],
    max: 40,
  },
  {
    id: 'rfc-23 yearly June and July x10',
    start: ny('1997-06-10T09:00:00'),
    lines: ['RRULE:FREQ=YEARLY;COUNT=10;BYMONTH=6,7'],
    max: 50,
  },
  {
    id: 'rfc-24 every other year Jan-Mar x10',
    start: ny('1997-03-10T09:00:00'),
    lines: ['RRULE:FREQ=YEARLY;INTERVAL=2;COUNT=10;BYMONTH=1,2,3'],
    max: 50,
  },
  {
    id: 'rfc-25 every third year days 1,100,200 x10',
    start: ny('1997-01-01T09:00:00'),
    lines: ['RRULE:FREQ=YEARLY;INTERVAL=3;COUNT=10;BYYEARDAY=1,100,200'],
    max: 50,
  },
  {
    id: 'rfc-26 every 20th Monday of the year',
    start: ny('1997-05-19T09:00:00'),
    lines: ['RRULE:FREQ=YEARLY;BYDAY=20MO'],
    max: 10,
  },
  {
    id: 'rfc-27 Monday of week 20',
    start: ny('1997-05-12T09:00:00'),
    lines: ['RRULE:FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO'],
    max: 10,
  },
  {
    id: 'rfc-28 every Thursday in March',
    start: ny('1997-03-13T09:00:00'),
    lines: ['RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=TH'],
    max: 20,
  },
  {
    id: 'rfc-29 every Thursday in June-August',
    start: ny('1997-06-05T09:00:00'),
    lines: ['RRULE:FREQ=YEARLY;BYDAY=TH;BYMONTH=6,7,8'],
    max: 40,
  },
  {
    id: 'rfc-30 every Friday the 13th (DTSTART excluded)',
    start: ny('1997-09-02T09:00:00'),
    lines: ['EXDATE;TZID=America/New_York:19970902T090000', 'RRULE:FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13'],
    max: 10,
  },
  {
    id: 'rfc-31 first Saturday after first Sunday',
    start: ny('1997-09-13T09:00:00'),
    lines: ['RRULE:FREQ=MONTHLY;BYDAY=SA;BYMONTHDAY=7,8,9,10,11,12,13'],
    max: 12,
  },
  {
    id: 'rfc-32 US presidential election day',
    start: ny('1996-11-05T09:00:00'),
    lines: ['RRULE:FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8'],
    max: 8,
  },
  {
    id: 'rfc-33 third TU/WE/TH of the month x3',
    start: ny('1997-09-04T09:00:00'),
    lines: ['RRULE:FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3'],
    max: 10,
  },
  {
    id: 'rfc-34 second-to-last weekday of the month',
    start: ny('1997-09-29T09:00:00'),
    lines: ['RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2'],
    max: 12,
  },
  // The RFC lists 09:00, 12:00, 15:00 here, but 17:00Z is 13:00 EDT: only 09:00 and 12:00 are before
  // UNTIL (a known erratum of the example). dateutil and the engine agree on the computed answer.
  {
    id: 'rfc-35 every 3 hours 09:00-17:00 (UNTIL erratum)',
    start: ny('1997-09-02T09:00:00'),
    lines: ['RRULE:FREQ=HOURLY;INTERVAL=3;UNTIL=19970902T170000Z'],
    max: 10,
  },
  {
    id: 'rfc-36 every 15 minutes x6',
    start: ny('1997-09-02T09:00:00'),
    lines: ['RRULE:FREQ=MINUTELY;INTERVAL=15;COUNT=6'],
    max: 10,
  },
  {
    id: 'rfc-37 every hour and a half x4',
    start: ny('1997-09-02T09:00:00'),
    lines: ['RRULE:FREQ=MINUTELY;INTERVAL=90;COUNT=4'],
    max: 10,
  },
  {
    id: 'rfc-38 every 20 minutes 9:00-16:40 (daily)',
    start: ny('1997-09-02T09:00:00'),
    lines: ['RRULE:FREQ=DAILY;BYHOUR=9,10,11,12,13,14,15,16;BYMINUTE=0,20,40'],
    max: 60,
  },
  {
    id: 'rfc-39 every 20 minutes 9:00-16:40 (minutely)',
    start: ny('1997-09-02T09:00:00'),
    lines: ['RRULE:FREQ=MINUTELY;INTERVAL=20;BYHOUR=9,10,11,12,13,14,15,16'],
    max: 60,
  },
  {
    id: 'rfc-40 WKST=MO',
    start: ny('1997-08-05T09:00:00'),
    lines: ['RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO'],
    max: 10,
  },
  {
    id: 'rfc-41 WKST=SU',
    start: ny('1997-08-05T09:00:00'),
    lines: ['RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU'],
    max: 10,
  },
  {
    id: 'rfc-42 February 30 ignored',
    start: ny('2007-01-15T09:00:00'),
    lines: ['RRULE:FREQ=MONTHLY;BYMONTHDAY=15,30;COUNT=5'],
    max: 10,
  },
  // Section 3.8.5.1/3.8.5.2 examples.
  {
    id: 'rfc-exdate utc list',
    start: utc('1996-04-01T01:00:00'),
    lines: ['RRULE:FREQ=DAILY;COUNT=6', 'EXDATE:19960402T010000Z,19960403T010000Z,19960404T010000Z'],
    max: 10,
  },
  {
    id: 'rfc-rdate tzid',
    start: ny('1997-07-01T08:30:00'),
    lines: ['RRULE:FREQ=MONTHLY;COUNT=3', 'RDATE;TZID=America/New_York:19970714T083000'],
    max: 10,
  },
  {
    id: 'rfc-rdate period (starts)',
    start: utc('1996-04-01T02:00:00'),
    lines: ['RDATE;VALUE=PERIOD:19960403T020000Z/19960403T040000Z,19960404T010000Z/PT3H'],
    max: 10,
  },
  {
    id: 'rfc-rdate dates',
    start: day('1997-01-01'),
    lines: [
      'RDATE;VALUE=DATE:19970101,19970120,19970217,19970421,19970526,19970704,19970901,19971014,19971128,19971129,19971225',
    ],
    max: 20,
  },
];

const dst: OracleCase[] = [
  {
    id: 'berlin weekly 09:00 across spring forward',
    start: berlin('2026-03-16T09:00:00'),
    lines: ['RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=6'],
    max: 10,
  },
  {
    id: 'berlin weekly 09:00 across fall back',
    start: berlin('2026-10-12T09:00:00'),
    lines: ['RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=6'],
    max: 10,
  },
  {
    id: 'berlin daily 02:30 through the gap (03:30 CEST)',
    start: berlin('2026-03-27T02:30:00'),
    lines: ['RRULE:FREQ=DAILY;COUNT=5'],
    max: 10,
  },
  {
    id: 'berlin daily 02:30 through the fold (first)',
    start: berlin('2026-10-23T02:30:00'),
    lines: ['RRULE:FREQ=DAILY;COUNT=5'],
    max: 10,
  },
  {
    id: 'berlin hourly through fall back',
    start: berlin('2026-10-25T00:00:00'),
    lines: ['RRULE:FREQ=HOURLY;COUNT=6'],
    max: 10,
  },
  {
    id: 'berlin hourly through spring forward',
    start: berlin('2026-03-29T00:00:00'),
    lines: ['RRULE:FREQ=HOURLY;COUNT=6'],
    max: 10,
    rfc: {
      why: 'wall 02:00 does not exist and reads as 03:00 CEST (01:00Z), the same instant as wall 03:00: one instance in a set; dateutil yields it twice',
      expected: [
        '2026-03-28T23:00:00Z',
        '2026-03-29T00:00:00Z',
        '2026-03-29T01:00:00Z',
        '2026-03-29T02:00:00Z',
        '2026-03-29T03:00:00Z',
        '2026-03-29T04:00:00Z',
      ],
    },
  },
  {
    id: 'berlin every 20 minutes through the gap',
    start: berlin('2026-03-29T01:20:00'),
    lines: ['RRULE:FREQ=MINUTELY;INTERVAL=20;COUNT=7'],
    max: 10,
    rfc: {
      why: 'walls 02:00/02:20/02:40 read as 03:00/03:20/03:40 CEST and coincide with the real ones: duplicates collapse (and are ordered by instant)',
      expected: [
        '2026-03-29T00:20:00Z',
        '2026-03-29T00:40:00Z',
        '2026-03-29T01:00:00Z',
        '2026-03-29T01:20:00Z',
        '2026-03-29T01:40:00Z',
        '2026-03-29T02:00:00Z',
        '2026-03-29T02:20:00Z',
      ],
    },
  },
  {
    id: 'berlin last Sunday of March 02:30 (always in the gap)',
    start: berlin('2026-03-29T02:30:00'),
    lines: ['RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU;COUNT=4'],
    max: 10,
  },
  {
    id: 'berlin last Sunday of October 02:30 (always in the fold)',
    start: berlin('2026-10-25T02:30:00'),
    lines: ['RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU;COUNT=4'],
    max: 10,
  },
  {
    id: 'new york weekly across both 2026 transitions',
    start: ny('2026-02-26T09:00:00'),
    lines: ['RRULE:FREQ=WEEKLY;BYDAY=TH;UNTIL=20261201T000000Z'],
    max: 60,
  },
  {
    id: 'new york daily 02:30 through the gap',
    start: ny('2026-03-06T02:30:00'),
    lines: ['RRULE:FREQ=DAILY;COUNT=4'],
    max: 10,
  },
  {
    id: 'new york daily 01:30 through the fold',
    start: ny('2026-10-30T01:30:00'),
    lines: ['RRULE:FREQ=DAILY;COUNT=4'],
    max: 10,
  },
  {
    id: 'new york hourly through fall back',
    start: ny('2026-11-01T00:00:00'),
    lines: ['RRULE:FREQ=HOURLY;INTERVAL=1;COUNT=5'],
    max: 10,
  },
  {
    id: 'new york every 2 hours with BYHOUR limit across spring forward',
    start: ny('2026-03-07T00:00:00'),
    lines: ['RRULE:FREQ=HOURLY;INTERVAL=2;BYHOUR=0,4,8;COUNT=8'],
    max: 10,
  },
  {
    id: 'sao paulo daily 00:30 through a midnight gap (2018)',
    start: { dateTime: '2018-11-02T00:30:00', timeZone: 'America/Sao_Paulo' },
    lines: ['RRULE:FREQ=DAILY;COUNT=4'],
    max: 10,
  },
  {
    id: 'lord howe daily 02:15 through a 30-minute gap',
    start: { dateTime: '2026-10-02T02:15:00', timeZone: 'Australia/Lord_Howe' },
    lines: ['RRULE:FREQ=DAILY;COUNT=4'],
    max: 10,
  },
  {
    id: 'kolkata weekly (half-hour offset, no DST)',
    start: { dateTime: '2026-01-05T10:00:00', timeZone: 'Asia/Kolkata' },
    lines: ['RRULE:FREQ=WEEKLY;BYDAY=MO,TH;COUNT=6'],
    max: 10,
  },
  {
    id: 'apia daily 09:00 across the skipped 2011-12-30',
    start: { dateTime: '2011-12-28T09:00:00', timeZone: 'Pacific/Apia' },
    lines: ['RRULE:FREQ=DAILY;COUNT=5'],
    max: 10,
    rfc: {
      why: 'Samoa skipped 2011-12-30: wall 09:00 that day reads with the old offset (-10:00) and is the instant of 2011-12-31 09:00 +14:00; one instance, not two',
      expected: [
        '2011-12-28T19:00:00Z',
        '2011-12-29T19:00:00Z',
        '2011-12-30T19:00:00Z',
        '2011-12-31T19:00:00Z',
        '2012-01-01T19:00:00Z',
      ],
    },
  },
  {
    id: 'start given as an instant, read in its zone',
    start: { dateTime: '2026-03-23T08:00:00Z', timeZone: 'Europe/Berlin' },
    lines: ['RRULE:FREQ=WEEKLY;COUNT=4'],
    max: 10,
  },
  { id: 'utc series daily', start: utc('2026-03-27T09:00:00'), lines: ['RRULE:FREQ=DAILY;COUNT=5'], max: 10 },
];

const monthEndAndLeap: OracleCase[] = [
  {
    id: 'monthly on the 31st skips short months',
    start: berlin('2026-01-31T09:00:00'),
    lines: ['RRULE:FREQ=MONTHLY;BYMONTHDAY=31;COUNT=8'],
    max: 20,
  },
  {
    id: 'monthly from the 31st (default day)',
    start: berlin('2026-01-31T09:00:00'),
    lines: ['RRULE:FREQ=MONTHLY;COUNT=8'],
    max: 20,
  },
  {
    id: 'monthly last day (-1)',
    start: berlin('2026-01-31T09:00:00'),
    lines: ['RRULE:FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=14'],
    max: 20,
  },
  {
    id: 'monthly on the 30th skips February',
    start: utc('2026-01-30T12:00:00'),
    lines: ['RRULE:FREQ=MONTHLY;BYMONTHDAY=30;COUNT=6'],
    max: 20,
  },
  {
    id: 'monthly day -31 (first day of 31-day months)',
    start: utc('2026-01-01T12:00:00'),
    lines: ['RRULE:FREQ=MONTHLY;BYMONTHDAY=-31;COUNT=7'],
    max: 20,
  },
  {
    id: 'monthly last of 29/30/31 via BYSETPOS',
    start: utc('2024-01-31T12:00:00'),
    lines: ['RRULE:FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1;COUNT=14'],
    max: 20,
  },
  {
    id: 'yearly last day of February',
    start: utc('2024-02-29T12:00:00'),
    lines: ['RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1;COUNT=6'],
    max: 20,
  },
  {
    id: 'yearly Feb 29 (leap years only)',
    start: berlin('2024-02-29T09:00:00'),
    lines: ['RRULE:FREQ=YEARLY;COUNT=4'],
    max: 10,
  },
  {
    id: 'yearly Feb 29 across 2100',
    start: utc('2096-02-29T09:00:00'),
    lines: ['RRULE:FREQ=YEARLY;COUNT=3'],
    max: 10,
  },
  {
    id: 'yearday 60',
    start: utc('2024-02-29T09:00:00'),
    lines: ['RRULE:FREQ=YEARLY;BYYEARDAY=60;COUNT=5'],
    max: 10,
  },
  {
    id: 'yearday -306 (always March 1)',
    start: utc('2024-03-01T09:00:00'),
    lines: ['RRULE:FREQ=YEARLY;BYYEARDAY=-306;COUNT=5'],
    max: 10,
  },
  {
    id: 'yearday 366 (leap years only)',
    start: utc('2024-12-31T09:00:00'),
    lines: ['RRULE:FREQ=YEARLY;BYYEARDAY=366;COUNT=3'],
    max: 10,
  },
  {
    id: 'yearday -366 (Jan 1 of leap years)',
    start: utc('2024-01-01T09:00:00'),
    lines: ['RRULE:FREQ=YEARLY;BYYEARDAY=-366;COUNT=3'],
    max: 10,
  },
  {
    id: 'monthly Feb 29 only',
    start: utc('2024-02-29T09:00:00'),
    lines: ['RRULE:FREQ=MONTHLY;BYMONTH=2;BYMONTHDAY=29;COUNT=3'],
    max: 10,
  },
  {
    id: 'daily Feb 29 only',
    start: utc('2024-02-29T09:00:00'),
    lines: ['RRULE:FREQ=DAILY;BYMONTH=2;BYMONTHDAY=29;COUNT=3'],
    max: 10,
  },
  {
    id: 'yearly Feb 30 never (only DTSTART)',
    start: utc('2024-02-01T09:00:00'),
    lines: ['RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30'],
    max: 5,
  },
  {
    id: 'yearday and month together',
    start: utc('2026-02-01T09:00:00'),
    lines: ['RRULE:FREQ=YEARLY;BYYEARDAY=1,32,60,-1;BYMONTH=2,3;COUNT=6'],
    max: 10,
  },
];

const setPos: OracleCase[] = [
  {
    id: 'last weekday of the month',
    start: berlin('2026-01-30T09:00:00'),
    lines: ['RRULE:FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=8'],
    max: 10,
  },
  {
    id: 'first and last weekend day',
    start: utc('2026-01-03T10:00:00'),
    lines: ['RRULE:FREQ=MONTHLY;BYDAY=SA,SU;BYSETPOS=1,-1;COUNT=8'],
    max: 10,
  },
  {
    id: 'yearly last Friday of the quarter months',
    start: utc('2026-12-25T10:00:00'),
    lines: ['RRULE:FREQ=YEARLY;BYMONTH=3,6,9,12;BYDAY=FR;BYSETPOS=-1;COUNT=4'],
    max: 10,
  },
  {
    id: 'weekly second of MO,WE,FR (DTSTART mid-week)',
    start: utc('2026-01-07T10:00:00'),
    lines: ['RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR;BYSETPOS=2;COUNT=6'],
    max: 10,
    rfc: {
      why: 'a WEEKLY period is the whole WKST-started week (MO 5, WE 7, FR 9: the second is WE 7); dateutil starts the first week at DTSTART and picks FR 9 too',
      expected: [
        '2026-01-07T10:00:00Z',
        '2026-01-14T10:00:00Z',
        '2026-01-21T10:00:00Z',
        '2026-01-28T10:00:00Z',
        '2026-02-04T10:00:00Z',
        '2026-02-11T10:00:00Z',
      ],
    },
  },
  {
    id: 'weekly first and last of MO,WE,FR (DTSTART on WKST)',
    start: utc('2026-01-09T10:00:00'),
    lines: ['RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR;BYSETPOS=1,-1;WKST=FR;COUNT=6'],
    max: 10,
  },
  {
    id: 'daily last of three hours',
    start: berlin('2026-03-27T17:00:00'),
    lines: ['RRULE:FREQ=DAILY;BYHOUR=9,12,17;BYSETPOS=-1;COUNT=4'],
    max: 10,
  },
  {
    id: 'hourly second quarter',
    start: utc('2026-01-01T00:15:00'),
    lines: ['RRULE:FREQ=HOURLY;BYMINUTE=0,15,30,45;BYSETPOS=2;COUNT=5'],
    max: 10,
  },
  {
    id: 'monthly 1st/15th/last, second of them',
    start: utc('2026-01-15T08:00:00'),
    lines: ['RRULE:FREQ=MONTHLY;BYMONTHDAY=1,15,-1;BYSETPOS=2;COUNT=4'],
    max: 10,
  },
  {
    id: 'fifth Monday where there is one',
    start: utc('2026-03-30T08:00:00'),
    lines: ['RRULE:FREQ=MONTHLY;BYDAY=MO;BYSETPOS=5;COUNT=5'],
    max: 10,
  },
  {
    id: 'setpos over day x time product',
    start: utc('2026-01-05T15:00:00'),
    lines: ['RRULE:FREQ=WEEKLY;BYDAY=MO,FR;BYHOUR=9,15;BYSETPOS=2,-1;COUNT=6'],
    max: 10,
  },
  {
    id: 'setpos out of range ignored',
    start: utc('2026-01-01T09:00:00'),
    lines: ['RRULE:FREQ=MONTHLY;BYMONTHDAY=1,2;BYSETPOS=1,3,-3;COUNT=4'],
    max: 10,
  },
];

const weekNo: OracleCase[] = [
  {
    id: 'week 1 Monday (reaches back into December)',
    start: utc('2025-12-29T09:00:00'),
    lines: ['RRULE:FREQ=YEARLY;BYWEEKNO=1;BYDAY=MO;COUNT=6'],
    max: 10,
  },
  {
    id: 'week 53 Thursday',
    start: utc('2020-12-31T09:00:00'),
    lines: ['RRULE:FREQ=YEARLY;BYWEEKNO=53;BYDAY=TH;COUNT=4'],
    max: 10,
  },
  {
    id: 'last week Sunday',
    start: utc('2025-12-28T09:00:00'),
    lines: ['RRULE:FREQ=YEARLY;BYWEEKNO=-1;BYDAY=SU;COUNT=5'],
    max: 10,
  },
  {
    id: 'week 1 with WKST=SU',
    start: utc('2026-01-04T09:00:00'),
    lines: ['RRULE:FREQ=YEARLY;BYWEEKNO=1;WKST=SU;BYDAY=SU,SA;COUNT=6'],
    max: 10,
  },
  {
    id: 'weeks 52,53 with WKST=SU',
    start: utc('2026-12-28T09:00:00'),
    lines: ['RRULE:FREQ=YEARLY;BYWEEKNO=52,53;WKST=SU;BYDAY=MO;COUNT=6'],
    max: 10,
  },
  {
    id: 'whole week 20',
    start: utc('2026-05-11T09:00:00'),
    lines: ['RRULE:FREQ=YEARLY;BYWEEKNO=20;COUNT=10'],
    max: 20,
  },
  {
    id: 'whole week 1 across the year boundary',
    start: utc('2024-12-30T09:00:00'),
    lines: ['RRULE:FREQ=YEARLY;BYWEEKNO=1;COUNT=14'],
    max: 20,
  },
  {
    id: 'December days of week 1',
    start: utc('2024-12-30T09:00:00'),
    lines: ['RRULE:FREQ=YEARLY;BYWEEKNO=1;BYMONTH=12;BYDAY=MO,TU,WE;COUNT=6'],
    max: 10,
  },
  {
    id: 'every other year week 1 Monday',
    start: utc('2025-12-29T09:00:00'),
    lines: ['RRULE:FREQ=YEARLY;INTERVAL=2;BYWEEKNO=1;BYDAY=MO;COUNT=6'],
    max: 10,
  },
  {
    id: 'week -52 reaching into the previous December',
    start: utc('2001-12-31T09:00:00'),
    lines: ['RRULE:FREQ=YEARLY;BYWEEKNO=-52;BYDAY=MO'],
    max: 5,
    rfc: {
      why: 'in 52-week years week -52 is week 1, whose Monday may be in December (2002-12-30 starts 2003\'s week 1); dateutil does not look for negative week numbers of the next year ("TODO" in its source)',
      expected: [
        '2001-12-31T09:00:00Z',
        '2002-12-30T09:00:00Z',
        '2004-01-05T09:00:00Z',
        '2005-01-03T09:00:00Z',
        '2006-01-02T09:00:00Z',
      ],
    },
  },
  {
    id: "January 1st in the previous year's week 52",
    start: berlin('2011-01-01T04:00:00'),
    lines: ['RRULE:FREQ=YEARLY;BYWEEKNO=52;BYDAY=SA;BYMONTH=1'],
    max: 5,
    rfc: {
      why: "2010 has 52 ISO weeks, so Saturday 2011-01-01 is in its week 52; dateutil counts the previous year's weeks from the current year's length and calls it week 53",
      expected: [
        '2011-01-01T03:00:00Z',
        '2022-01-01T03:00:00Z',
        '2028-01-01T03:00:00Z',
        '2039-01-01T03:00:00Z',
        '2050-01-01T03:00:00Z',
      ],
    },
  },
  {
    id: 'week 10 with WKST=SU and WE',
    start: berlin('2026-03-11T09:00:00'),
    lines: ['RRULE:FREQ=YEARLY;BYWEEKNO=10;WKST=SU;BYDAY=WE;COUNT=5'],
    max: 10,
  },
  {
    id: 'week 53 whole week, WKST=SU',
    start: utc('2025-12-28T09:00:00'),
    lines: ['RRULE:FREQ=YEARLY;BYWEEKNO=53;WKST=SU;COUNT=9'],
    max: 10,
    rfc: {
      why: "with Sunday weeks 2026 has 52 weeks (its week 1 starts 2026-01-04, 2027's on 2027-01-03), so 2027-01-01/02 are in week 52; dateutil miscounts the previous year's weeks (52 + 362 % 7 // 4) and calls them week 53",
      expected: [
        '2025-12-28T09:00:00Z',
        '2025-12-29T09:00:00Z',
        '2025-12-30T09:00:00Z',
        '2025-12-31T09:00:00Z',
        '2026-01-01T09:00:00Z',
        '2026-01-02T09:00:00Z',
        '2026-01-03T09:00:00Z',
        '2031-12-28T09:00:00Z',
        '2031-12-29T09:00:00Z',
      ],
    },
  },
];

const countUntil: OracleCase[] = [
  {
    id: 'until is an instant: synchronized with the last',
    start: berlin('2026-03-26T09:00:00'),
    lines: ['RRULE:FREQ=DAILY;UNTIL=20260330T070000Z'],
    max: 20,
  },
  {
    id: 'until is an instant: a second before',
    start: berlin('2026-03-26T09:00:00'),
    lines: ['RRULE:FREQ=DAILY;UNTIL=20260330T065959Z'],
    max: 20,
  },
  {
    id: 'until on a UTC series',
    start: utc('2026-12-01T23:00:00'),
    lines: ['RRULE:FREQ=WEEKLY;UNTIL=20261231T235959Z'],
    max: 20,
  },
  {
    id: 'until before DTSTART: only DTSTART',
    start: berlin('2026-03-26T09:00:00'),
    lines: ['RRULE:FREQ=DAILY;UNTIL=20200101T000000Z'],
    max: 20,
  },
  { id: 'count 1', start: berlin('2026-03-26T09:00:00'), lines: ['RRULE:FREQ=DAILY;COUNT=1'], max: 20 },
  {
    id: 'DTSTART not on the rule counts as the first',
    start: berlin('2026-03-25T09:00:00'),
    lines: ['RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3'],
    max: 20,
    rfc: {
      why: 'RFC 5545 3.3.10: "The DTSTART property value always counts as the first occurrence", so COUNT=3 is DTSTART and two Mondays; dateutil (compatible=True) adds DTSTART to three Mondays',
      expected: ['2026-03-25T08:00:00Z', '2026-03-30T07:00:00Z', '2026-04-06T07:00:00Z'],
    },
  },
  {
    id: 'DTSTART not on the rule, no COUNT',
    start: berlin('2026-03-25T09:00:00'),
    lines: ['RRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20260420T070000Z'],
    max: 20,
  },
  {
    id: 'interval 1000 years',
    start: utc('2026-06-01T09:00:00'),
    lines: ['RRULE:FREQ=YEARLY;INTERVAL=1000;COUNT=5'],
    max: 10,
  },
  {
    id: 'every 7 seconds x6',
    start: utc('2026-06-01T09:00:00'),
    lines: ['RRULE:FREQ=SECONDLY;INTERVAL=7;COUNT=6'],
    max: 10,
  },
  {
    id: 'secondly limited by minute and second',
    start: utc('2026-06-01T09:00:00'),
    lines: ['RRULE:FREQ=SECONDLY;BYMINUTE=0,1;BYSECOND=0,30;COUNT=6'],
    max: 10,
  },
  {
    id: 'minutely 15 within 9:xx',
    start: ny('2026-06-01T09:00:00'),
    lines: ['RRULE:FREQ=MINUTELY;INTERVAL=15;BYHOUR=9;COUNT=6'],
    max: 10,
  },
  {
    id: 'hourly 5 limited to 9 and 14 (sparse)',
    start: utc('2026-06-01T09:00:00'),
    lines: ['RRULE:FREQ=HOURLY;INTERVAL=5;BYHOUR=9,14;COUNT=6'],
    max: 10,
  },
  {
    id: 'daily in months 1 and 7 with weekdays',
    start: berlin('2026-01-05T09:00:00'),
    lines: ['RRULE:FREQ=DAILY;BYMONTH=1,7;BYDAY=MO;COUNT=10'],
    max: 20,
  },
  {
    id: 'weekly in March only',
    start: berlin('2026-03-02T09:00:00'),
    lines: ['RRULE:FREQ=WEEKLY;BYMONTH=3;COUNT=5'],
    max: 10,
  },
  {
    id: 'yearly 1MO and -1MO of the year',
    start: utc('2026-01-05T09:00:00'),
    lines: ['RRULE:FREQ=YEARLY;BYDAY=1MO,-1MO;COUNT=6'],
    max: 10,
  },
  {
    id: 'yearly -1FR of each listed month',
    start: utc('2026-01-30T09:00:00'),
    lines: ['RRULE:FREQ=YEARLY;BYMONTH=1,5;BYDAY=-1FR;COUNT=6'],
    max: 10,
  },
  {
    id: 'monthly 2nd Tuesday at two times',
    start: utc('2026-01-13T09:30:00'),
    lines: ['RRULE:FREQ=MONTHLY;BYDAY=2TU;BYHOUR=9,18;BYMINUTE=30;COUNT=6'],
    max: 10,
  },
];

const setCases: OracleCase[] = [
  {
    id: 'exdate with Z is an instant (matches 09:00 CET)',
    start: berlin('2026-11-30T09:00:00'),
    lines: ['RRULE:FREQ=WEEKLY;COUNT=4', 'EXDATE:20261207T080000Z'],
    max: 10,
  },
  {
    id: 'exdate with Z is not wall time',
    start: berlin('2026-11-30T09:00:00'),
    lines: ['RRULE:FREQ=WEEKLY;COUNT=4', 'EXDATE:20261207T090000Z'],
    max: 10,
  },
  {
    id: 'exdate with TZID',
    start: berlin('2026-11-30T09:00:00'),
    lines: ['RRULE:FREQ=WEEKLY;COUNT=4', 'EXDATE;TZID=Europe/Berlin:20261207T090000'],
    max: 10,
  },
  {
    id: 'exdate in another zone',
    start: berlin('2026-11-30T09:00:00'),
    lines: ['RRULE:FREQ=WEEKLY;COUNT=4', 'EXDATE;TZID=America/New_York:20261207T030000'],
    max: 10,
  },
  {
    id: 'exdate floating is the series zone',
    start: berlin('2026-11-30T09:00:00'),
    lines: ['RRULE:FREQ=WEEKLY;COUNT=4', 'EXDATE:20261214T090000'],
    max: 10,
  },
  {
    id: 'exdate list and DTSTART',
    start: berlin('2026-11-30T09:00:00'),
    lines: ['RRULE:FREQ=WEEKLY;COUNT=5', 'EXDATE;TZID=Europe/Berlin:20261130T090000,20261214T090000'],
    max: 10,
  },
  {
    id: 'exdate across DST',
    start: berlin('2026-03-23T09:00:00'),
    lines: ['RRULE:FREQ=WEEKLY;COUNT=3', 'EXDATE:20260330T070000Z'],
    max: 10,
  },
  {
    id: 'rdate with Z',
    start: berlin('2026-11-30T09:00:00'),
    lines: ['RRULE:FREQ=WEEKLY;COUNT=2', 'RDATE:20261203T150000Z'],
    max: 10,
  },
  {
    id: 'rdate before DTSTART',
    start: berlin('2026-11-30T09:00:00'),
    lines: ['RRULE:FREQ=WEEKLY;COUNT=2', 'RDATE;TZID=Europe/Berlin:20261101T090000'],
    max: 10,
  },
  {
    id: 'rdate duplicate of an instance',
    start: berlin('2026-11-30T09:00:00'),
    lines: ['RRULE:FREQ=WEEKLY;COUNT=3', 'RDATE;TZID=Europe/Berlin:20261207T090000'],
    max: 10,
  },
  {
    id: 'rdate excluded by exdate',
    start: berlin('2026-11-30T09:00:00'),
    lines: ['RDATE:20261210T090000', 'EXDATE:20261210T080000Z'],
    max: 10,
  },
  {
    id: 'rdates only',
    start: ny('2026-01-01T10:00:00'),
    lines: ['RDATE;TZID=America/New_York:20260301T100000,20260401T100000'],
    max: 10,
  },
  {
    id: 'exrule weekends out of daily',
    start: utc('2026-01-01T09:00:00'),
    lines: ['RRULE:FREQ=DAILY;COUNT=20', 'EXRULE:FREQ=WEEKLY;BYDAY=SA,SU'],
    max: 30,
  },
  {
    id: 'exrule with count',
    start: utc('2026-01-01T09:00:00'),
    lines: ['RRULE:FREQ=DAILY;COUNT=10', 'EXRULE:FREQ=DAILY;INTERVAL=3;COUNT=2'],
    max: 30,
  },
  {
    id: 'two rrules',
    start: utc('2026-01-05T09:00:00'),
    lines: ['RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=4', 'RRULE:FREQ=MONTHLY;BYMONTHDAY=15;COUNT=3'],
    max: 30,
  },
  {
    id: 'two rrules overlapping',
    start: utc('2026-01-01T09:00:00'),
    lines: ['RRULE:FREQ=DAILY;INTERVAL=2;COUNT=6', 'RRULE:FREQ=DAILY;INTERVAL=3;COUNT=5'],
    max: 30,
  },
];

const allDay: OracleCase[] = [
  { id: 'date daily x5', start: day('2026-12-01'), lines: ['RRULE:FREQ=DAILY;COUNT=5'], max: 10 },
  {
    id: 'date weekly MO,FR',
    start: day('2026-12-04'),
    lines: ['RRULE:FREQ=WEEKLY;BYDAY=MO,FR;COUNT=6'],
    max: 10,
  },
  {
    id: 'date monthly last Friday',
    start: day('2026-01-30'),
    lines: ['RRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=6'],
    max: 10,
  },
  { id: 'date yearly Feb 29', start: day('2024-02-29'), lines: ['RRULE:FREQ=YEARLY;COUNT=3'], max: 10 },
  {
    id: 'date monthly 31st',
    start: day('2026-01-31'),
    lines: ['RRULE:FREQ=MONTHLY;BYMONTHDAY=31;COUNT=5'],
    max: 10,
  },
  { id: 'date until date', start: day('2026-12-01'), lines: ['RRULE:FREQ=DAILY;UNTIL=20261205'], max: 10 },
  {
    id: 'date exdate date',
    start: day('2026-12-01'),
    lines: ['RRULE:FREQ=DAILY;COUNT=5', 'EXDATE;VALUE=DATE:20261203'],
    max: 10,
  },
  {
    id: 'date rdate date',
    start: day('2026-12-01'),
    lines: ['RRULE:FREQ=WEEKLY;COUNT=2', 'RDATE;VALUE=DATE:20261224,20261231'],
    max: 10,
  },
  {
    id: 'date yearly week 1 whole',
    start: day('2026-01-01'),
    lines: ['RRULE:FREQ=YEARLY;BYWEEKNO=1;BYDAY=TH;COUNT=4'],
    max: 10,
  },
];

export const ORACLE_CASES: OracleCase[] = [
  ...rfcExamples,
  ...dst,
  ...monthEndAndLeap,
  ...setPos,
  ...weekNo,
  ...countUntil,
  ...setCases,
  ...allDay,
];
