import { DomainError } from '@platform/envelope';
import { DavError } from './dav.errors';
import { readCalendarObject } from './ical-reader';

const vcal = (inner: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', ...inner, 'END:VCALENDAR', ''].join('\r\n');
const event = (lines: string[], start = 'DTSTART:20261201T100000Z') =>
  vcal(['BEGIN:VEVENT', 'UID:u-1', 'DTSTAMP:20261001T000000Z', start, ...lines, 'END:VEVENT']);

function refusal(body: string): unknown {
  try {
    readCalendarObject(body, 'person-1');
  } catch (e) {
    return e instanceof DomainError ? e.reason : e;
  }
  return 'accepted';
}

describe('readCalendarObject on what ical.js only fails to decode or write later', () => {
  // Each answered 500 to a CalDAV PUT (found by the fuzz harness, caldav-fuzz.int-spec): ical.js
  // threw a plain Error when the value was first read or the text written.
  it.each([
    ['a date-time that is not one', event([], 'DTSTART:tomorrow')],
    ['a five-digit year', event(['DTEND:999991231T010000Z'], 'DTSTART:999991231T000000Z')],
    ['a property named like an Object member', event(['CONSTRUCTOR:y'])],
    ['an unreadable EXDATE', event(['RRULE:FREQ=DAILY;COUNT=3', 'EXDATE:20261302T100000Z'])],
  ])('refuses %s as invalid calendar data', (_label, body) => {
    expect(refusal(body)).toBe(DavError.INVALID_CALENDAR_DATA);
  });

  // Accepted before, stored rolled over (2027-02-02T01:00 for 20261332T250000) and served as sent.
  it.each([
    ['month 13, day 32, hour 25', event([], 'DTSTART:20261332T250000')],
    ['30 February', event([], 'DTSTART:20260230T100000Z')],
    ['29 February of a common year', event([], 'DTSTART;VALUE=DATE:20270229')],
    ['an all-day month 99', event([], 'DTSTART;VALUE=DATE:20269901')],
    ['minute 61', event(['DTEND:20261201T106100Z'])],
    [
      'an EXDATE on 30 February',
      event(['RRULE:FREQ=DAILY;COUNT=3', 'EXDATE:20261201T100000Z,20270230T100000Z']),
    ],
  ])('refuses a date or time that does not exist: %s', (_label, body) => {
    expect(refusal(body)).toBe(DavError.INVALID_CALENDAR_DATA);
  });

  it('takes 29 February of a leap year and a leap second', () => {
    expect(refusal(event(['DTEND;VALUE=DATE:20280301'], 'DTSTART;VALUE=DATE:20280229'))).toBe('accepted');
    expect(refusal(event(['DTEND:20261231T235960Z'], 'DTSTART:20261231T235959Z'))).toBe('accepted');
  });

  it('still reads a valid event, its values decoded once', () => {
    const obj = readCalendarObject(event(['DTEND:20261201T110000Z', 'SUMMARY:Dentist']), 'person-1');
    expect(obj.uid).toBe('u-1');
    expect(obj.fields.title).toBe('Dentist');
    expect(obj.ical).toContain('SUMMARY:Dentist');
  });
});
