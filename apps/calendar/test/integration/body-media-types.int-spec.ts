import { auditRoutes } from '@platform/auth';
import { bodyTypeProblems } from '@platform/testing';
import { CalendarAppModule } from '../../src/app.module';
import { startCalendar, type CalendarFixture } from './calendar-fixture';

/** Every POST, PUT and PATCH route of the calendar answers a body that is not JSON with 415 in the envelope. */
describe('calendar refuses bodies that are not JSON (real PostgreSQL)', () => {
  let s: CalendarFixture;
  beforeAll(async () => {
    s = await startCalendar('calendar_body_types');
  });
  afterAll(() => s?.close());

  it('answers 415 UNSUPPORTED_MEDIA_TYPE on every write route', async () => {
    const { checked, problems } = await bodyTypeProblems(s.base, auditRoutes(CalendarAppModule.register({})));
    expect(checked).toBeGreaterThan(5);
    expect(problems).toEqual([]);
  });
});
