import { rawRequest, readRouteManifest, withClient } from '@platform/testing';
import { startCalendar, type CalendarFixture } from './calendar-fixture';

/**
 * The leak contract: a caller who may see only busy blocks gets answers (items, order, total) that do
 * not depend on anything a busy block hides. Every read route of the calendar is classified below;
 * a new GET route fails the first test until it is.
 */
const HIDDEN_FIELD_PARAMETERS: Record<string, string[][]> = {
  // Each inner list: values of one hidden-field parameter that must give the same answer.
  '/Calendar/events': [
    ['text=Dentist', 'text=zzzz', 'text=secret'],
    ['product=crm', 'product=hr', 'product=nobody'],
    ['status=confirmed', 'status=cancelled', 'status=tentative'],
    ['sort=updated', 'sort=-updated'],
  ],
  '/Calendar/listByEntity': [
    ['product_id=crm&entity_id=P-1', 'product_id=crm&entity_id=missing', 'product_id=hr&entity_id=P-1'],
  ],
};
/** Read routes that return no event data, so nothing hidden to leak. */
// /metrics: counts and durations by route pattern, never an event's content (and not routed by the gateway).
const NO_EVENT_DATA = [
  '/Calendar/grants',
  '/Calendar/teams',
  '/Calendar/app-passwords',
  '/Calendar/ics-feeds',
  '/health/live',
  '/health/ready',
  '/metrics',
];
/**
 * Busy time only, and no parameter on a hidden field: people, resources and the range are what a
 * busy-block caller may ask anyway (availability.int-spec.ts asserts the answer carries no details).
 */
const BUSY_TIME_ONLY = ['/Calendar/freebusy'];
/**
 * Event data addressed by its triple (entity ids are hidden fields), so closed to busy-block callers:
 * a product needs Read (FreeBusy-only: 403 whatever it names), a person gets only events they take part
 * in (anyone else's answers exactly as a missing one). Asserted below.
 */
const READ_REQUIRED = ['/Calendar/expand'];
/**
 * A person's ICS subscription feed: others' private events as busy blocks whose bytes (and so the
 * feed's ETag) follow only what a busy block shows. Asserted below.
 */
const FEED = ['/Calendar/ics/:token'];
/**
 * The change journal: the events query's readers and redaction, and a busy-block caller is shown only
 * the entries that may have moved a busy block, so its entries do not move when hidden fields do. Its
 * `next_cursor` does: that is the account's position, which every write moves (the number each write
 * returns), telling that something changed in the account, never what. Asserted below.
 */
const JOURNAL = ['/Calendar/journal'];

describe('calendar leak contract: busy-block callers learn nothing hidden (real PostgreSQL)', () => {
  let fx: CalendarFixture;
  let base: string;
  let db: CalendarFixture['db'];
  let crm: string;
  let busy: string;

  const session = (sub: string) => fx.session(sub);
  const product = (key: string, id: string) => ({ API_KEY: key, AccountId: 'acme', ProductId: id });
  /** The answer without what differs per request (the request id). */
  const answer = async (path: string, headers: Record<string, string>) => {
    const res = await rawRequest(`${base}${path}`, { headers });
    const value = { ...(res.json?.value as Record<string, unknown>) };
    delete value.requestId;
    return { status: res.status, value };
  };
  const put = async (body: Record<string, unknown>) => {
    const res = await rawRequest(`${base}/Calendar/upsert`, {
      headers: product(crm, 'crm'),
      body: JSON.stringify(body),
    });
    expect(res.status).toBeLessThan(300);
  };
  const bobsPrivateWeek = (title: string, version = 0) =>
    [1, 2, 3].map((d) => ({
      entity_type: 'private',
      entity_id: `P-${d}`,
      version,
      title: `${title} ${d}`,
      description: `${title} notes`,
      location: `${title} clinic`,
      visibility: 'private',
      owner: 'bob',
      metadata: { topic: title },
      start: { date_time: `2026-12-0${d}T10:00:00Z` },
      end: { date_time: `2026-12-0${d}T11:00:00Z` },
    }));

  beforeAll(async () => {
    fx = await startCalendar('calendar_leak', { CALENDAR_WRITE_LIMIT: '100000' });
    ({ base, db } = fx);
    crm = await fx.product('crm', ['Push', 'Read']);
    busy = await fx.product('busy', ['FreeBusy']);
    await withClient(db.url, (c) =>
      c.query(`INSERT INTO calendar.team_members (account_id, team_id, person_id)
               VALUES ('acme', 'ops', 'bob'), ('acme', 'ops', 'alice')`),
    );
    for (const e of bobsPrivateWeek('Dentist')) await put(e);
  });

  afterAll(async () => {
    await fx?.close();
  });

  it('classifies every read route of the calendar', () => {
    const reads = readRouteManifest('calendar')
      .filter((r) => r.method === 'GET')
      .map((r) => r.path);
    expect(
      reads.filter(
        (p) =>
          !(p in HIDDEN_FIELD_PARAMETERS) &&
          !NO_EVENT_DATA.includes(p) &&
          !BUSY_TIME_ONLY.includes(p) &&
          !READ_REQUIRED.includes(p) &&
          !FEED.includes(p) &&
          !JOURNAL.includes(p),
      ),
    ).toEqual([]);
  });

  const principals = async (): Promise<[string, Record<string, string>][]> => [
    ['a FreeBusy-only product', product(busy, 'busy')],
    [
      'a teammate of the owner of private events (person alice, person=bob)',
      { PlatformSession: await session('alice') },
    ],
  ];

  it('answers busy-block callers of Read-only routes the same for existing, hidden and missing events', async () => {
    const range = 'from=2026-12-01T00:00:00Z&to=2026-12-08T00:00:00Z';
    const triples = [
      'product_id=crm&entity_type=private&entity_id=P-1',
      'product_id=crm&entity_type=private&entity_id=missing',
      'product_id=hr&entity_type=private&entity_id=P-1',
    ];
    for (const [who, headers] of await principals()) {
      const answers = await Promise.all(
        triples.map((t) => answer(`/Calendar/expand?${t}&${range}`, headers)),
      );
      expect([who, answers[0].status]).toEqual([who, 'API_KEY' in headers ? 403 : 404]);
      for (const a of answers.slice(1)) expect([who, a]).toEqual([who, answers[0]]);
    }
    // The owner (a participant) does expand it.
    const own = await answer(`/Calendar/expand?${triples[0]}&${range}`, {
      PlatformSession: await session('bob'),
    });
    expect([own.status, (own.value as { total: number }).total]).toEqual([200, 1]);
  });

  it('gives each busy-block principal the same answer for every value of a hidden-field parameter', async () => {
    for (const [who, headers] of await principals()) {
      for (const [path, groups] of Object.entries(HIDDEN_FIELD_PARAMETERS)) {
        if (path === '/Calendar/listByEntity' && !('API_KEY' in headers)) continue; // products only
        for (const variants of groups) {
          const answers = await Promise.all(
            variants.map((v) =>
              answer(path === '/Calendar/events' ? `${path}?person=bob&${v}` : `${path}?${v}`, headers),
            ),
          );
          for (const a of answers.slice(1)) expect([who, path, a]).toEqual([who, path, answers[0]]);
        }
      }
    }
  });

  it('gives the same answers after every hidden field of the events changed', async () => {
    const before: unknown[] = [];
    const queries = [
      '/Calendar/events?person=bob',
      '/Calendar/events?person=bob&text=Dentist',
      '/Calendar/events?person=bob&sort=updated',
    ];
    const journalOf = async (headers: Record<string, string>) =>
      ((await answer('/Calendar/journal', headers)).value as { items: unknown[] }).items;
    for (const [, headers] of await principals()) {
      for (const q of queries) before.push(await answer(q, headers));
      before.push(await journalOf(headers));
    }
    // Alice's feed of the team she shares with bob: its bytes and ETag must not move either.
    const created = await rawRequest(`${base}/Calendar/ics-feeds`, {
      headers: await session('alice').then((s) => ({ PlatformSession: s })),
      body: JSON.stringify({ view: 'team', team: 'ops' }),
    });
    const feedUrl = `${base}/Calendar/ics/${(created.json?.value as { token: string }).token}`;
    const feedBefore = await rawRequest(feedUrl);
    expect(feedBefore.status).toBe(200);
    const inWindow = Date.parse('2026-12-01T00:00:00Z') > Date.now() - 89 * 86_400_000;
    expect(feedBefore.text.split('SUMMARY:Busy\r\n').length - 1).toBe(inWindow ? 3 : 0);
    expect(feedBefore.text).not.toContain('Dentist');
    for (const e of bobsPrivateWeek('Therapist', 1)) await put(e);
    const after: unknown[] = [];
    for (const [, headers] of await principals()) {
      for (const q of queries) after.push(await answer(q, headers));
      after.push(await journalOf(headers));
    }
    expect(after).toEqual(before);
    const feedAfter = await rawRequest(feedUrl);
    expect([feedAfter.headers.etag, feedAfter.text]).toEqual([feedBefore.headers.etag, feedBefore.text]);
    // The owner does see the change, so the data did move.
    const own = await answer('/Calendar/events?text=Therapist', { PlatformSession: await session('bob') });
    expect((own.value as { total: number }).total).toBe(3);
    const ownJournal = await journalOf({ PlatformSession: await session('bob') });
    expect(ownJournal).toHaveLength(6);
    expect(JSON.stringify(ownJournal)).toContain('Therapist');
  });
});
