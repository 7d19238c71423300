import ICAL from 'ical.js';

/**
 * iCalendar text the way CalDAV clients send it, shared by the CalDAV tests (our own requests and the
 * interop clients'), so each test says only what its events are.
 */
export const CRLF = '\r\n';

/** Content lines as one iCalendar text, every line ended by CRLF (RFC 5545 3.1). */
export const ics = (lines: string[]) => [...lines, ''].join(CRLF);

/** Europe/Berlin with the EU rules as clients write them (DST from the last Sunday of March to October's). */
export const BERLIN = [
  'BEGIN:VTIMEZONE',
  'TZID:Europe/Berlin',
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0200',
  'TZNAME:CEST',
  'DTSTART:19700329T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'TZNAME:CET',
  'DTSTART:19701025T030000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];

/** The VEVENTs of an iCalendar text, parsed by ical.js. */
export const veventsOf = (text: string) =>
  new ICAL.Component(ICAL.parse(text) as unknown[]).getAllSubcomponents('vevent');

/** One VEVENT in its own VCALENDAR, times in UTC (a dentist's hour on 2026-12-10 unless told otherwise). */
export function singleEvent(uid: string, o: { summary?: string; start?: string; end?: string } = {}): string {
  return ics([
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Test//CalDAV//EN',
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20261001T000000Z',
    `DTSTART:${o.start ?? '20261210T100000Z'}`,
    `DTEND:${o.end ?? '20261210T110000Z'}`,
    `SUMMARY:${o.summary ?? 'Dentist'}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ]);
}
