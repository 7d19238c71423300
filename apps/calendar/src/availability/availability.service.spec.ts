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

describe('busyIntervalsOf (recurrence expanded by libs/recurrence)', () => {
  const row = {
    startsAt: new Date('2026-12-01T09:00:00Z'),
    endsAt: new Date('2026-12-01T10:00:00Z'),
    allDay: false,
    startDate: null,
    endDate: null,
    personIds: ['a'],
    resourceIds: [],
    recurrence: ['RRULE:FREQ=DAILY'],
    recurrenceOverrides: [],
    timeZone: 'UTC',
  };
  const range = { from: Date.parse('2026-12-01T00:00:00Z'), to: Date.parse('2026-12-04T00:00:00Z') };
  const at = (day: string, from: string, to: string, kind: 'busy' | 'tentative' = 'busy') => ({
    start: Date.parse(`2026-12-${day}T${from}:00Z`),
    end: Date.parse(`2026-12-${day}T${to}:00Z`),
    kind,
  });

  it('gives a plain event its own interval; status decides the kind', () => {
    const plain = { ...row, recurrence: [] };
    expect(busyIntervalsOf({ ...plain, status: 'confirmed' }, range)).toEqual([at('01', '09:00', '10:00')]);
    expect(busyIntervalsOf({ ...plain, status: 'tentative' }, range)[0].kind).toBe('tentative');
  });

  it('expands a series in the range, overrides applied (cancelled never busy, moved at its new time)', () => {
    expect(busyIntervalsOf({ ...row, status: 'tentative' }, range)).toEqual([
      at('01', '09:00', '10:00', 'tentative'),
      at('02', '09:00', '10:00', 'tentative'),
      at('03', '09:00', '10:00', 'tentative'),
    ]);
    const overridden = {
      ...row,
      status: 'confirmed' as const,
      recurrenceOverrides: [
        { recurrence_id: '2026-12-02T09:00:00Z', cancelled: true as const },
        { recurrence_id: '2026-12-03T09:00:00Z', start: { date_time: '2026-12-03T15:00:00Z' } },
      ],
    };
    expect(busyIntervalsOf(overridden, range)).toEqual([
      at('01', '09:00', '10:00'),
      at('03', '15:00', '16:00'),
    ]);
  });

  it('falls back to the stored interval for a series the engine refuses', () => {
    const broken = { ...row, status: 'confirmed' as const, recurrence: ['RRULE:FREQ=SOMETIMES'] };
    expect(busyIntervalsOf(broken, range)).toEqual([at('01', '09:00', '10:00')]);
  });
});
