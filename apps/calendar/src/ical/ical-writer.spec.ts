import ICAL from 'ical.js';
import { expandRecurrence } from '@platform/recurrence';
import { compileStored } from '../recurrence/event-series';
import {
  calendarText,
  eventResourceText,
  eventUid,
  eventVevents,
  foldContentLines,
  zonesOf,
  type IcalSource,
} from './ical-writer';

const T0 = new Date('2026-09-01T08:00:00Z');
const T1 = new Date('2026-09-20T10:30:00Z');

function event(over: Partial<IcalSource> = {}): IcalSource {
  return {
    id: '7b0c8f4e-2b7d-4a0e-9d3e-1f2a3b4c5d6e',
    productId: 'crm' as IcalSource['productId'],
    entityType: 'meeting',
    entityId: 'M-1',
    version: 3,
    title: 'Weekly sync',
    description: 'Agenda: numbers; plans, risks',
    location: 'Room 301',
    allDay: false,
    startsAt: new Date('2026-10-05T07:00:00Z'),
    endsAt: new Date('2026-10-05T08:00:00Z'),
    startDate: null,
    endDate: null,
    timeZone: 'Europe/Berlin',
    status: 'confirmed',
    visibility: 'default',
    transparency: 'opaque',
    ownerPersonId: 'person-17',
    assigneeIds: ['person-18'],
    resources: [{ type: 'room', id: 'room-301' }],
    recurrence: [],
    recurrenceOverrides: [],
    metadata: { stage: 'negotiation' },
    createdAt: T0,
    updatedAt: T1,
    ...over,
  };
}

/** A weekly Monday 09:00 Berlin series across the end of summer time (2026-10-25). */
const berlinSeries = () =>
  event({
    recurrence: [
      'RRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20261214T080000Z',
      'EXDATE;TZID=Europe/Berlin:20261019T090000',
      'RDATE;TZID=Europe/Berlin:20261028T150000',
      'RDATE;VALUE=PERIOD:20261030T100000Z/20261030T120000Z',
    ],
    recurrenceOverrides: [
      {
        recurrence_id: '2026-11-02T08:00:00Z',
        start: { date_time: '2026-11-02T11:00:00+01:00', time_zone: 'Europe/Berlin' },
        end: { date_time: '2026-11-02T12:30:00+01:00', time_zone: 'Europe/Berlin' },
      },
      { recurrence_id: '2026-11-09T08:00:00Z', cancelled: true },
    ],
  });

/** Parses a calendar and registers its VTIMEZONEs, as a client does before reading times. */
function parse(text: string): ICAL.Component {
  const root = ICAL.Component.fromString(text);
  for (const z of root.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(z);
  return root;
}

const lines = (text: string) => text.split('\r\n').slice(0, -1);

function occurrencesByIcalJs(root: ICAL.Component, until: Date): { start: number; end: number }[] {
  const vevents = root.getAllSubcomponents('vevent');
  const master = new ICAL.Event(vevents.find((v) => !v.hasProperty('recurrence-id')));
  for (const v of vevents) if (v.hasProperty('recurrence-id')) master.relateException(v);
  const out: { start: number; end: number }[] = [];
  const it = master.iterator();
  for (let next: ICAL.Time | ICAL.Period = it.next(); next; next = it.next()) {
    // ical.js hands an RDATE;VALUE=PERIOD over as the period itself: its own start and end.
    if (next instanceof ICAL.Period) {
      if (next.start.toJSDate() >= until) break;
      out.push({ start: next.start.toJSDate().getTime(), end: next.getEnd().toJSDate().getTime() });
      continue;
    }
    if (next.toJSDate() >= until) break;
    const d = master.getOccurrenceDetails(next);
    out.push({ start: d.startDate.toJSDate().getTime(), end: d.endDate.toJSDate().getTime() });
  }
  return out.sort((a, b) => a.start - b.start);
}

function occurrencesByEngine(e: IcalSource, until: Date): { start: number; end: number }[] {
  const { occurrences } = expandRecurrence(compileStored(e), { from: 0, to: until, limit: 1000 });
  const ms = (t: (typeof occurrences)[number]['start']) =>
    'date' in t ? Date.parse(`${t.date}T00:00:00Z`) : Date.parse(t.instant);
  return occurrences.map((o) => ({ start: ms(o.start), end: ms(o.end) })).sort((a, b) => a.start - b.start);
}

describe('iCalendar writer', () => {
  it('writes a recurring Berlin series across the DST change with EXDATE, RDATE and overrides', () => {
    const text = calendarText([berlinSeries()]);
    const root = parse(text);
    const [master, moved, ...rest] = root.getAllSubcomponents('vevent');
    expect(rest).toHaveLength(0);
    expect(master.getFirstPropertyValue('uid')).toBe(berlinSeries().id);
    expect(moved.getFirstPropertyValue('uid')).toBe(berlinSeries().id);
    expect(text).toContain('\r\nDTSTART;TZID=Europe/Berlin:20261005T090000\r\n');
    expect(text).toContain('\r\nDTEND;TZID=Europe/Berlin:20261005T100000\r\n');
    expect(text).toContain('\r\nRRULE:FREQ=WEEKLY;BYDAY=MO;UNTIL=20261214T080000Z\r\n');
    // The cancelled override joins the EXDATEs, in the series' zone.
    expect(text).toContain('\r\nEXDATE;TZID=Europe/Berlin:20261019T090000,20261109T090000\r\n');
    expect(text).toContain('\r\nRDATE;TZID=Europe/Berlin:20261028T150000\r\n');
    expect(text).toContain('\r\nRDATE;TZID=Europe/Berlin;VALUE=PERIOD:20261030T110000/20261030T130000\r\n');
    expect(moved.getFirstProperty('recurrence-id')?.toICALString()).toBe(
      'RECURRENCE-ID;TZID=Europe/Berlin:20261102T090000',
    );
    expect(moved.getFirstProperty('dtstart')?.toICALString()).toBe(
      'DTSTART;TZID=Europe/Berlin:20261102T110000',
    );
    expect(moved.getFirstPropertyValue('summary')).toBe('Weekly sync');
    expect(moved.hasProperty('rrule')).toBe(false);
    expect(zonesOf(root.getAllSubcomponents('vevent'))).toEqual(['Europe/Berlin']);
    expect(root.getAllSubcomponents('vtimezone').map((z) => z.getFirstPropertyValue('tzid'))).toEqual([
      'Europe/Berlin',
    ]);
    // Summer time before the change, winter time after, as ical.js reads our VTIMEZONE.
    const starts = occurrencesByIcalJs(root, new Date('2027-01-01T00:00:00Z')).map((o) =>
      new Date(o.start).toISOString(),
    );
    expect(starts).toEqual([
      '2026-10-05T07:00:00.000Z',
      '2026-10-12T07:00:00.000Z',
      '2026-10-26T08:00:00.000Z',
      '2026-10-28T14:00:00.000Z',
      '2026-10-30T10:00:00.000Z',
      '2026-11-02T10:00:00.000Z',
      '2026-11-16T08:00:00.000Z',
      '2026-11-23T08:00:00.000Z',
      '2026-11-30T08:00:00.000Z',
      '2026-12-07T08:00:00.000Z',
      '2026-12-14T08:00:00.000Z',
    ]);
  });

  it('gives ical.js the occurrences the recurrence engine computes for the same event', () => {
    const until = new Date('2028-01-01T00:00:00Z');
    const cases: IcalSource[] = [
      berlinSeries(),
      event({
        timeZone: 'America/New_York',
        startsAt: new Date('2026-01-06T14:30:00Z'),
        endsAt: new Date('2026-01-06T15:00:00Z'),
        recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=40', 'EXDATE;VALUE=DATE:20260310'],
        recurrenceOverrides: [
          {
            recurrence_id: '2026-03-12T13:30:00Z',
            start: { date_time: '2026-03-12T16:00:00-04:00', time_zone: 'America/New_York' },
          },
          // Names no occurrence (a Wednesday): the engine ignores it, so must the feed.
          {
            recurrence_id: '2026-03-18T13:30:00Z',
            start: { date_time: '2026-03-18T16:00:00-04:00', time_zone: 'America/New_York' },
          },
        ],
      }),
      event({
        timeZone: null,
        startsAt: new Date('2026-03-01T23:00:00Z'),
        endsAt: new Date('2026-03-02T01:00:00Z'),
        recurrence: ['RRULE:FREQ=MONTHLY;BYMONTHDAY=1,15;UNTIL=20261231T000000Z'],
      }),
      event({
        allDay: true,
        timeZone: 'Asia/Almaty',
        startDate: '2026-12-24',
        endDate: '2026-12-26',
        startsAt: new Date('2026-12-23T19:00:00Z'),
        endsAt: new Date('2026-12-25T19:00:00Z'),
        recurrence: ['RRULE:FREQ=YEARLY;COUNT=3', 'EXDATE;VALUE=DATE:20261224'],
        recurrenceOverrides: [{ recurrence_id: '2027-12-24', start: { date: '2027-12-23' } }],
      }),
    ];
    for (const e of cases) {
      const root = parse(calendarText([e]));
      expect(occurrencesByIcalJs(root, until)).toEqual(occurrencesByEngine(e, until));
    }
    expect(occurrencesByEngine(cases[1], until).length).toBe(39);
  });

  it('writes an all-day event with VALUE=DATE and no VTIMEZONE', () => {
    const text = calendarText([
      event({
        allDay: true,
        startDate: '2026-12-24',
        endDate: '2026-12-27',
        timeZone: 'Asia/Almaty',
        startsAt: new Date('2026-12-23T19:00:00Z'),
        endsAt: new Date('2026-12-26T19:00:00Z'),
      }),
    ]);
    const [v] = parse(text).getAllSubcomponents('vevent');
    expect(v.getFirstProperty('dtstart')?.toICALString()).toBe('DTSTART;VALUE=DATE:20261224');
    expect(v.getFirstProperty('dtend')?.toICALString()).toBe('DTEND;VALUE=DATE:20261227');
    expect(text).not.toContain('BEGIN:VTIMEZONE');
  });

  it('writes an event without a zone in UTC, and the event fields', () => {
    const e = event({
      timeZone: null,
      visibility: 'confidential',
      transparency: 'transparent',
      status: 'tentative',
      conference: { provider: 'jitsi', url: 'https://meet.example/r/abc', room_id: 'abc', created_at: '' },
      attendees: [
        {
          kind: 'person',
          id: 'person-18',
          role: 'REQ-PARTICIPANT',
          partstat: 'ACCEPTED',
          responded_at: null,
          comment: null,
        },
        {
          kind: 'email',
          email: 'guest@example.com',
          role: 'OPT-PARTICIPANT',
          partstat: 'NEEDS-ACTION',
          responded_at: null,
          comment: null,
        },
      ],
      icalUid: 'client-uid@example.com',
    });
    const text = calendarText([e]);
    const [v] = parse(text).getAllSubcomponents('vevent');
    const prop = (n: string) => v.getFirstProperty(n)?.toICALString();
    expect(eventUid(e)).toBe('client-uid@example.com');
    expect(v.getFirstPropertyValue('uid')).toBe('client-uid@example.com');
    expect(prop('dtstart')).toBe('DTSTART:20261005T070000Z');
    expect(prop('dtend')).toBe('DTEND:20261005T080000Z');
    expect(prop('dtstamp')).toBe('DTSTAMP:20260920T103000Z');
    expect(prop('created')).toBe('CREATED:20260901T080000Z');
    expect(prop('last-modified')).toBe('LAST-MODIFIED:20260920T103000Z');
    expect(v.getFirstPropertyValue('sequence')).toBe(2);
    expect(prop('status')).toBe('STATUS:TENTATIVE');
    expect(prop('class')).toBe('CLASS:CONFIDENTIAL');
    expect(prop('transp')).toBe('TRANSP:TRANSPARENT');
    expect(v.getFirstPropertyValue('description')).toBe('Agenda: numbers; plans, risks');
    expect(prop('organizer')).toBe('ORGANIZER;CN=person-17:urn:x-calendar:person:person-17');
    expect(v.getAllProperties('attendee').map((p) => p.toICALString())).toEqual([
      'ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;CN=person-18:urn:x-calendar:person:person-18',
      'ATTENDEE;CUTYPE=INDIVIDUAL;ROLE=OPT-PARTICIPANT;PARTSTAT=NEEDS-ACTION;CN=guest@example.com:mailto:guest@example.com',
    ]);
    expect(prop('conference')).toBe(
      'CONFERENCE;FEATURE=VIDEO;LABEL=jitsi;VALUE=URI:https://meet.example/r/abc',
    );
    expect(v.getFirstPropertyValue('x-calendar-product')).toBe('crm');
    expect(v.getFirstPropertyValue('x-calendar-entity-type')).toBe('meeting');
    expect(v.getFirstPropertyValue('x-calendar-entity-id')).toBe('M-1');
    expect(v.getFirstPropertyValue('x-calendar-assignee')).toBe('person-18');
    expect(v.getFirstPropertyValue('x-calendar-resource')).toBe('room:room-301');
    expect(JSON.parse(String(v.getFirstPropertyValue('x-calendar-metadata')))).toEqual({
      stage: 'negotiation',
    });
    expect(text).not.toContain('BEGIN:VTIMEZONE');
    expect(text).not.toContain('METHOD:');
  });

  it('shows a busy block only for busyOnly: times and recurrence kept, details gone', () => {
    const e = berlinSeries();
    e.attendees = [
      {
        kind: 'email',
        email: 'secret@example.com',
        role: 'REQ-PARTICIPANT',
        partstat: 'ACCEPTED',
        responded_at: null,
        comment: null,
      },
    ];
    e.conference = { provider: 'jitsi', url: 'https://meet.example/secret', room_id: 'r', created_at: '' };
    e.transparency = 'transparent';
    const text = calendarText([e], { busyOnly: () => true });
    for (const leaked of ['Weekly sync', 'Agenda', 'Room 301', 'secret', 'person-1', 'crm', 'negotiation']) {
      expect(text).not.toContain(leaked);
    }
    const vevents = parse(text).getAllSubcomponents('vevent');
    expect(vevents).toHaveLength(2);
    for (const v of vevents) {
      expect(v.getFirstPropertyValue('summary')).toBe('Busy');
      expect(v.getFirstPropertyValue('class')).toBe('PRIVATE');
      expect(v.getFirstPropertyValue('transp')).toBe('TRANSPARENT');
      expect(v.hasProperty('description')).toBe(false);
      expect(v.hasProperty('sequence')).toBe(false);
      expect(v.hasProperty('last-modified')).toBe(false);
    }
    expect(vevents[0].hasProperty('rrule')).toBe(true);
    expect(vevents[0].getAllProperties('exdate')).toHaveLength(1);
    expect(vevents[1].hasProperty('recurrence-id')).toBe(true);
    // The same occurrences as the full event.
    const until = new Date('2027-01-01T00:00:00Z');
    expect(occurrencesByIcalJs(parse(text), until)).toEqual(occurrencesByEngine(e, until));
    // Nothing in it follows a hidden field: other texts, a later edit, a cancellation give the same bytes.
    const edited = {
      ...e,
      title: 'Another title',
      description: null,
      metadata: {},
      version: 9,
      status: 'cancelled' as const,
      updatedAt: new Date('2026-11-30T00:00:00Z'),
    };
    expect(calendarText([edited], { busyOnly: () => true })).toBe(text);
    expect(vevents[0].getFirstPropertyValue('status')).toBe('CONFIRMED');
    expect(vevents[0].getFirstProperty('dtstamp')?.toICALString()).toBe('DTSTAMP:20261005T070000Z');
    const tentative = parse(calendarText([{ ...e, status: 'tentative' }], { busyOnly: () => true }));
    expect(tentative.getAllSubcomponents('vevent')[0].getFirstPropertyValue('status')).toBe('TENTATIVE');
  });

  it('folds long lines at 75 octets without splitting a UTF-8 sequence', () => {
    const title = 'Совещание по бюджету 2027 — 𝄞 музыкальная пауза, ☕ кофе и печенье '.repeat(4);
    const text = calendarText([event({ title, timeZone: null })]);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const physical = lines(text);
    for (const l of physical) expect(Buffer.byteLength(l, 'utf8')).toBeLessThanOrEqual(75);
    const summary = physical.findIndex((l) => l.startsWith('SUMMARY:'));
    expect(physical[summary + 1].startsWith(' ')).toBe(true);
    // Each physical line is valid UTF-8 on its own: no sequence was cut.
    for (const l of physical) {
      expect(
        Buffer.from(Buffer.from(l, 'utf8').toString('utf8'), 'utf8').equals(Buffer.from(l, 'utf8')),
      ).toBe(true);
      expect(l).not.toContain('\uFFFD');
    }
    const [v] = parse(text).getAllSubcomponents('vevent');
    expect(v.getFirstPropertyValue('summary')).toBe(title);
    expect(foldContentLines('A:' + 'x'.repeat(200))).toMatch(/^A:x{73}\r\n x{74}\r\n x{53}\r\n$/);
  });

  it('makes a published feed with a name and refresh interval', () => {
    const text = calendarText([event()], { name: 'Team A', refreshInterval: 'PT1H' });
    const root = parse(text);
    expect(lines(text).slice(0, 9)).toEqual([
      'BEGIN:VCALENDAR',
      'PRODID:-//Platform//Calendar//EN',
      'VERSION:2.0',
      'CALSCALE:GREGORIAN',
      'METHOD:PUBLISH',
      'X-WR-CALNAME:Team A',
      'NAME:Team A',
      'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
      'X-PUBLISHED-TTL:PT1H',
    ]);
    expect(root.getAllSubcomponents('vtimezone')).toHaveLength(1);
  });

  it('answers a resource with the stored iCalendar text, and takes the feed VEVENTs from it', () => {
    const stored = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Client//EN',
      'BEGIN:VTIMEZONE',
      'TZID:Custom Zone',
      'BEGIN:STANDARD',
      'DTSTART:19700101T000000',
      'TZOFFSETFROM:+0300',
      'TZOFFSETTO:+0300',
      'END:STANDARD',
      'END:VTIMEZONE',
      'BEGIN:VEVENT',
      'UID:abc@client',
      'DTSTAMP:20260101T000000Z',
      'DTSTART;TZID=Custom Zone:20261201T100000',
      'DTEND;TZID=Europe/Berlin:20261201T090000',
      'SUMMARY:Dentist',
      'BEGIN:VALARM',
      'ACTION:DISPLAY',
      'TRIGGER:-PT15M',
      'END:VALARM',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
    const e = event({ ical: stored, icalUid: 'abc@client' });
    expect(eventResourceText(e)).toBe(stored);
    const feed = parse(calendarText([e], { name: 'Me' }));
    const [v] = feed.getAllSubcomponents('vevent');
    expect(v.getFirstPropertyValue('summary')).toBe('Dentist');
    expect(v.getAllSubcomponents('valarm')).toHaveLength(1);
    expect(feed.getAllSubcomponents('vtimezone').map((z) => z.getFirstPropertyValue('tzid'))).toEqual([
      'Custom Zone',
      'Europe/Berlin',
    ]);
    const busy = parse(eventResourceText(e, { busyOnly: true }));
    const [b] = busy.getAllSubcomponents('vevent');
    expect(b.getFirstPropertyValue('summary')).toBe('Busy');
    expect(b.getAllSubcomponents('valarm')).toHaveLength(0);
    expect(b.getFirstPropertyValue('uid')).toBe('abc@client');
    // The client's own DTSTAMP (which moves with its edits) is not shown either.
    expect(b.getFirstProperty('dtstamp')?.toICALString()).toBe('DTSTAMP:20261005T070000Z');
  });

  it('falls back to the columns for stored text ical.js cannot decode', () => {
    const broken = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'BEGIN:VEVENT',
      'UID:x@client',
      'DTSTART:tomorrow',
      'SUMMARY:Stored',
      'END:VEVENT',
      'END:VCALENDAR',
      '',
    ].join('\r\n');
    const [v] = parse(calendarText([event({ ical: broken, timeZone: null })])).getAllSubcomponents('vevent');
    expect(v.getFirstPropertyValue('summary')).toBe('Weekly sync');
    expect(v.getFirstProperty('dtstart')?.toICALString()).toBe('DTSTART:20261005T070000Z');
  });

  it('writes nothing for an event without a start, and one VEVENT for a plain event', () => {
    expect(eventVevents(event({ startsAt: null, endsAt: null }))).toEqual([]);
    expect(eventVevents(event())).toHaveLength(1);
    expect(eventVevents(berlinSeries())).toHaveLength(2);
  });

  it('writes a series the engine refuses as its first occurrence alone', () => {
    const vevents = eventVevents(event({ recurrence: ['RRULE:FREQ=SOMETIMES'] }));
    expect(vevents).toHaveLength(1);
    expect(vevents[0].hasProperty('rrule')).toBe(false);
  });

  it('rewrites stored lines into the series form: floating times, lower case, DATE values', () => {
    const e = event({
      recurrence: [
        'rrule:freq=daily;count=5',
        'EXDATE:20261006T090000',
        'RDATE;VALUE=DATE:20261020',
        'EXDATE;TZID=America/New_York:20261007T030000',
      ],
    });
    const text = calendarText([e]);
    expect(text).toContain('\r\nRRULE:FREQ=DAILY;COUNT=5\r\n');
    expect(text).toContain('\r\nRDATE;TZID=Europe/Berlin:20261020T090000\r\n');
    expect(text).toContain('\r\nEXDATE;TZID=Europe/Berlin:20261006T090000,20261007T090000\r\n');
    const until = new Date('2027-01-01T00:00:00Z');
    expect(occurrencesByIcalJs(parse(text), until)).toEqual(occurrencesByEngine(e, until));
  });
});
