import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SUPPORTED_LANGUAGES } from '@platform/i18n';
import { AvailabilityError, AvailabilityErrorReason } from './availability.errors';
import { apiFieldName, busyIntervalsOf, toDomainError } from './availability.service';

const messages = (lang: string) =>
  (
    JSON.parse(readFileSync(join(__dirname, '..', 'i18n', lang, 'calendar.json'), 'utf8')) as {
      errors: Record<string, string>;
    }
  ).errors;

describe('availability errors as calendar errors', () => {
  it.each(Object.values(AvailabilityErrorReason))(
    '%s is a 400 with a message in every language',
    (reason) => {
      const e = toDomainError(new AvailabilityError(reason, 'durationMinutes', { min: 1, max: 1440 }));
      expect([e.status, e.reason, e.messageKey]).toEqual([400, reason, `calendar.errors.${reason}`]);
      expect(e.details).toEqual({ field: 'duration_minutes', min: 1, max: 1440 });
      const english = messages('en')[reason];
      const placeholders = (t: string) => (t.match(/\{\w+\}/g) ?? []).sort();
      for (const lang of SUPPORTED_LANGUAGES) {
        const text = messages(lang)[reason];
        expect([lang, placeholders(text)]).toEqual([lang, placeholders(english)]);
        if (lang !== 'en') expect(text).not.toBe(english);
      }
    },
  );

  it('names fields the way the caller sent them', () => {
    expect(apiFieldName('participants[2].workingHours.days.mon[0].end')).toBe(
      'participants.2.working_hours.days.mon.0.end',
    );
    expect(apiFieldName('range.from', { 'range.from': 'from' })).toBe('from');
  });
});

describe('busyIntervalsOf (the recurrence seam)', () => {
  const row = {
    startsAt: new Date('2026-12-01T09:00:00Z'),
    endsAt: new Date('2026-12-01T10:00:00Z'),
    personIds: ['a'],
    resourceIds: [],
    recurrence: ['RRULE:FREQ=DAILY'],
    timeZone: 'UTC',
  };
  const range = { from: 0, to: Date.parse('2027-01-01T00:00:00Z') };

  it('gives the master its own interval until recurrence is expanded; status decides the kind', () => {
    expect(busyIntervalsOf({ ...row, status: 'confirmed' }, range)).toEqual([
      { start: row.startsAt.getTime(), end: row.endsAt.getTime(), kind: 'busy' },
    ]);
    expect(busyIntervalsOf({ ...row, status: 'tentative' }, range)[0].kind).toBe('tentative');
  });
});
