import { auditRoutes } from '@platform/auth';
import { exemptRoutes, request, scopeDenialCases } from '@platform/testing';
import { CalendarAppModule } from '../../src/app.module';
import { personScopes } from '../../src/auth/calendar.access';
import { PERMISSIONS } from '../../src/grants/permissions';
import { startCalendar, type CalendarFixture } from './calendar-fixture';

type Env = { success: boolean; value: { reason?: string; required?: string[] } };

/**
 * Deny by default, walked: every calendar route, called by a product lacking each grant it demands, is
 * refused with GRANT_MISSING; by a person lacking a scope (anyone but the account owner), OWNER_ONLY.
 */
describe('calendar authorization walk (real PostgreSQL)', () => {
  const routes = auditRoutes(CalendarAppModule.register({}));
  const cases = scopeDenialCases(routes);
  let cal: CalendarFixture;

  beforeAll(async () => {
    cal = await startCalendar('cal_authz');
  });

  afterAll(async () => {
    await cal?.close();
  });

  const call = (c: { method: string; path: string }, headers: Record<string, string>) =>
    request<Env>(`${cal.base}${c.path}`, {
      method: c.method,
      headers: { AccountId: 'acme', ...headers },
      body: c.method === 'GET' ? undefined : {},
    });

  it('names its exemptions: listing grants shows each caller only its own; an rsvp answers for oneself', () => {
    expect(exemptRoutes(routes)).toEqual([
      'POST /Calendar/rsvp: an attendee answers only for themselves: a person as an invited attendee, a guest through the signed token of their own invitation',
      "GET /Calendar/grants: a product key sees only its own grants; a person, their account's",
      'POST /Calendar/app-passwords: a person sees, creates and revokes only their own app passwords',
      'GET /Calendar/app-passwords: a person sees, creates and revokes only their own app passwords',
      'DELETE /Calendar/app-passwords/:id: a person sees, creates and revokes only their own app passwords',
    ]);
  });

  const productCases = cases.filter((c) => c.scheme === 'product-key');
  it.each(
    productCases.map((c, i) => [`${c.method} ${c.path} without ${c.withhold.join('+')}`, c, i] as const),
  )('product key %s: 403 CALENDAR_GRANT_MISSING; with every grant: not 403', async (_name, c, i) => {
    const without = await cal.product(
      `walk-${i}`,
      PERMISSIONS.filter((p) => !c.withhold.includes(p)),
    );
    const denied = await call(c, { API_KEY: without, ProductId: `walk-${i}` });
    expect([denied.status, denied.body.value.reason]).toEqual([403, 'CALENDAR_GRANT_MISSING']);
    expect(denied.body.value.required).toEqual(c.withhold.filter((s) => PERMISSIONS.includes(s as never)));
    const withAll = await cal.product(`walk-all-${i}`, [...PERMISSIONS]);
    expect((await call(c, { API_KEY: withAll, ProductId: `walk-all-${i}` })).status).not.toBe(403);
  });

  // A person is the owner (every person scope) or a member; only what a member lacks can be withheld.
  const member = personScopes(false);
  const lacksAll = (withhold: string[]) => withhold.every((s) => !member.includes(s as never));
  const sessionCases = cases.filter((c) => c.scheme === 'platform-session');

  it('leaves to members exactly the reads every person may make, and the changes of their own events', () => {
    expect(
      sessionCases
        .filter((c) => !lacksAll(c.withhold))
        .map((c) => `${c.method} ${c.path} ${c.withhold.join('+')}`),
    ).toEqual([
      'GET /Calendar/events Read+FreeBusy',
      // The journal of what the events view shows a person (the same readers and redaction).
      'GET /Calendar/journal Read+FreeBusy',
      'POST /Calendar/attachConference Push+EditOwnEvents',
      'POST /Calendar/invite Push+EditOwnEvents',
      'GET /Calendar/freebusy Read+FreeBusy',
      'POST /Calendar/findSlots Read+FreeBusy',
      // A person expands only events they take part in (checked by the handler: 404 for any other).
      'GET /Calendar/expand Read',
      'GET /Calendar/teams Share+ViewTeams',
      // ICS feeds of what the events view shows a person (their own feeds only: the service checks).
      'POST /Calendar/ics-feeds Read+FreeBusy',
      'GET /Calendar/ics-feeds Read+FreeBusy',
      'DELETE /Calendar/ics-feeds/00000000-0000-4000-8000-000000000000 Read+FreeBusy',
    ]);
  });

  it.each(
    sessionCases
      .filter((c) => lacksAll(c.withhold))
      .map((c) => [`${c.method} ${c.path} without ${c.withhold.join('+')}`, c] as const),
  )('member session %s: 403 CALENDAR_OWNER_ONLY; the owner: not 403', async (_name, c) => {
    const denied = await call(c, { PlatformSession: await cal.session('member-1') });
    expect([denied.status, denied.body.value.reason]).toEqual([403, 'CALENDAR_OWNER_ONLY']);
    const owner = await call(c, { PlatformSession: await cal.session('owner-1', ['owner']) });
    expect(owner.status).not.toBe(403);
  });
});
