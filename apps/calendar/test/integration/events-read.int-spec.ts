import { DataSource } from 'typeorm';
import { request, withClient } from '@platform/testing';
import { CalendarEvent } from '../../src/events/calendar-event.entity';
import { toEventView } from '../../src/events/event.mapper';
import { toBusyBlock } from '../../src/events/events-read.service';
import { startCalendar, type CalendarFixture } from './calendar-fixture';

type Env<T> = { success: boolean; code: number; value: T & { reason?: string } };
type Page = { items: Record<string, unknown>[]; total: number };

/**
 * The hot reads (issue 9): plain rows instead of hydrated entities, rows and total in one statement,
 * team lookups inside it. What they answer must not change: the same bytes as the entity mapper, the
 * same total on every page (also past the end), the same overlap rule.
 */
describe('calendar hot reads: plain rows, one statement (real PostgreSQL)', () => {
  let fx: CalendarFixture;
  let base: string;
  let crm: string;
  let busy: string;
  /** SQL statements the app ran since the last reset. */
  let statements: string[] = [];

  const product = (key: string, id: string) => ({ API_KEY: key, AccountId: 'acme', ProductId: id });
  const get = (path: string, headers: Record<string, string>) =>
    request<Env<Page>>(`${base}${path}`, { headers });
  /** The statements one request runs (the key already cached by an earlier call). */
  const statementsOf = async (path: string, headers: Record<string, string>) => {
    await get(path, headers);
    statements = [];
    const res = await get(path, headers);
    expect(res.status).toBe(200);
    return statements.filter((s) => !/^\s*INSERT INTO ("calendar"\.")?request_log/.test(s));
  };

  beforeAll(async () => {
    fx = await startCalendar('calendar_read');
    base = fx.base;
    crm = await fx.product('crm', ['Push', 'Read']);
    busy = await fx.product('busy', ['FreeBusy']);
    const logger = fx.app.get(DataSource).logger;
    logger.logQuery = (query: string) => void statements.push(query);
    await withClient(fx.db.url, async (c) => {
      await c.query(`INSERT INTO calendar.team_members (account_id, team_id, person_id)
                     VALUES ('acme', 'sales', 'alice'), ('acme', 'sales', 'bob'), ('acme', 'ops', 'bob'),
                            ('acme', 'ops', 'carol')`);
      // Rows written straight, with what the API rarely produces: microseconds, years 1 and 9999,
      // events without times, non-ASCII metadata, a private event, a cancelled one.
      await c.query(`INSERT INTO calendar.events (account_id, product_id, entity_type, entity_id, version,
          title, description, location, all_day, starts_at, ends_at, start_date, end_date, time_zone, status,
          visibility, owner_person_id, assignee_ids, person_ids, resources, resource_ids, recurrence, metadata,
          created_at, updated_at)
        VALUES
        ('acme', 'crm', 'deal', 'T-1', 3, 'Timed', 'with µs', 'Room 1', false,
         '2026-12-01T05:00:00.123456Z', '2026-12-01T06:00:00.999999Z', NULL, NULL, 'Asia/Almaty', 'confirmed',
         'default', 'alice', '{bob,carol}', '{alice,bob,carol}', '[{"type":"room","id":"r-1"}]', '{room:r-1}',
         '{"RRULE:FREQ=WEEKLY;COUNT=4"}', '{"stage":"won","ключ":"значение"}',
         '2026-11-01T00:00:00.000001Z', '2026-11-02T00:00:00.5Z'),
        ('acme', 'crm', 'leave', 'A-1', 1, NULL, NULL, NULL, true,
         '2026-12-01T19:00:00Z', '2026-12-03T19:00:00Z', '2026-12-02', '2026-12-04', 'Asia/Tashkent', 'tentative',
         'private', 'bob', '{}', '{bob}', '[]', '{}', '{}', '{}', now(), now()),
        ('acme', 'crm', 'leave', 'A-2', 1, 'Year one', NULL, NULL, true,
         '0001-01-01T00:00:00Z', '0001-01-02T00:00:00Z', '0001-01-01', '0001-01-02', NULL, 'confirmed',
         'public', 'carol', '{}', '{carol}', '[]', '{}', '{}', '{}', now(), now()),
        ('acme', 'crm', 'leave', 'A-3', 1, 'Last day', NULL, NULL, true,
         '9999-12-30T00:00:00Z', '9999-12-31T00:00:00Z', '9999-12-30', '9999-12-31', NULL, 'cancelled',
         'confidential', 'dave', '{}', '{dave}', '[]', '{}', '{}', '{}', now(), now()),
        ('acme', 'crm', 'task', 'N-1', 2, 'No time', '', '', false,
         NULL, NULL, NULL, NULL, NULL, 'confirmed', 'default', NULL, '{}', '{}', '[]', '{}', '{}', '{}', now(), now())`);
    });
  });

  afterAll(async () => {
    await fx?.close();
  });

  it('answers with exactly the bytes the entity mapper gives, for full events and busy blocks', async () => {
    const entities = await fx.app
      .get(DataSource)
      .getRepository(CalendarEvent)
      .find({ order: { startsAt: 'ASC', endsAt: 'ASC', id: 'ASC' } });
    expect(entities).toHaveLength(5);

    const all = await get('/Calendar/events', product(crm, 'crm'));
    expect(JSON.stringify(all.body.value.items)).toBe(JSON.stringify(entities.map(toEventView)));

    const blocks = await get('/Calendar/events', product(busy, 'busy'));
    expect(JSON.stringify(blocks.body.value.items)).toBe(
      JSON.stringify(entities.filter((e) => e.status !== 'cancelled').map(toBusyBlock)),
    );

    // A teammate of bob's sees bob's private leave as a busy block, their own timed event in full.
    const alice = { PlatformSession: await fx.session('alice') };
    const mine = await get('/Calendar/events', alice);
    const entity = (id: string) => {
      const e = entities.find((x) => x.entityId === id);
      if (!e) throw new Error(`no event ${id}`);
      return e;
    };
    expect(JSON.stringify(mine.body.value.items)).toBe(
      JSON.stringify([toEventView(entity('T-1')), toBusyBlock(entity('A-1'))]),
    );

    for (const e of entities) {
      const one = await get(
        `/Calendar/listByEntity?entity_type=${e.entityType}&entity_id=${e.entityId}`,
        product(crm, 'crm'),
      );
      expect(JSON.stringify(one.body.value.items)).toBe(JSON.stringify([toEventView(e)]));
    }
  });

  it('gives the same total on every page, past the end too', async () => {
    const h = product(crm, 'crm');
    const page = (q: string) => get(`/Calendar/events?${q}`, h).then((r) => r.body.value);
    expect((await page('limit=2')).total).toBe(5);
    expect((await page('limit=2&offset=2')).items).toHaveLength(2);
    expect(await page('limit=2&offset=4')).toMatchObject({ total: 5, items: [expect.anything()] });
    expect(await page('limit=2&offset=5')).toEqual({ items: [], total: 5 });
    expect(await page('limit=2&offset=500')).toEqual({ items: [], total: 5 });
    expect(await page('person=nobody')).toEqual({ items: [], total: 0 });
    expect(await page('person=nobody&offset=3')).toEqual({ items: [], total: 0 });
    // Past the end for a person whose subject is bound only for the page's columns, not its filters.
    const alice = { PlatformSession: await fx.session('alice') };
    const past = await get('/Calendar/events?offset=10&sort=-updated', alice);
    expect(past.body.value).toEqual({ items: [], total: 2 });
  });

  it('runs one statement per week query, for a product (key and grants cached) and for a person', async () => {
    const week = 'from=2026-11-30T00:00:00Z&to=2026-12-07T00:00:00Z';
    const productRun = await statementsOf(`/Calendar/events?${week}`, product(crm, 'crm'));
    // The key and its grants come from the replica's cache (API_KEY_CACHE_TTL_MS): the query alone.
    expect(productRun).toHaveLength(1);
    expect(productRun[0]).toMatch(/count\(\*\) OVER \(\)/);
    const alice = { PlatformSession: await fx.session('alice') };
    expect(await statementsOf(`/Calendar/events?${week}&team=sales`, alice)).toHaveLength(1);
    // Only a page past the end counts in a statement of its own.
    expect(await statementsOf(`/Calendar/events?${week}&offset=50`, alice)).toHaveLength(2);
    // T-1 repeats weekly: its masters come back in the page's own statement (UNION ALL), so the first
    // page stays one statement. A later page also reads the plain rows its occurrences push into it
    // (here: the one plain row of the week, A-1, behind T-1's occurrence), and its plain part is past
    // the end, so it counts too: three statements, only when recurring masters reach into the range.
    expect(await statementsOf(`/Calendar/events?${week}&limit=1`, product(crm, 'crm'))).toHaveLength(1);
    const later = await statementsOf(`/Calendar/events?${week}&limit=1&offset=1`, product(crm, 'crm'));
    expect(later).toHaveLength(3);
    const second = await get(`/Calendar/events?${week}&limit=1&offset=1`, product(crm, 'crm'));
    expect(second.body.value).toMatchObject({ total: 2, items: [{ entity_id: 'A-1' }] });
    for (const q of ['entity_type=deal&entity_id=T-1', 'entity_id=T-1']) {
      expect(await statementsOf(`/Calendar/listByEntity?${q}`, product(crm, 'crm'))).toHaveLength(1);
    }
  });

  it('keeps the overlap rule of [from, to): instants at `from` count, ends at `from` and starts at `to` do not', async () => {
    await withClient(fx.db.url, (c) =>
      c.query(`INSERT INTO calendar.events (account_id, product_id, entity_type, entity_id, version, title,
                 starts_at, ends_at)
               VALUES ('acme', 'crm', 'edge', 'E-1', 1, 'ends at from', '2030-01-01T09:00Z', '2030-01-01T10:00Z'),
                      ('acme', 'crm', 'edge', 'E-2', 1, 'instant at from', '2030-01-01T10:00Z', '2030-01-01T10:00Z'),
                      ('acme', 'crm', 'edge', 'E-3', 1, 'inside', '2030-01-01T10:30Z', '2030-01-01T10:45Z'),
                      ('acme', 'crm', 'edge', 'E-4', 1, 'spans', '2029-12-01T00:00Z', '2030-02-01T00:00Z'),
                      ('acme', 'crm', 'edge', 'E-5', 1, 'instant at to', '2030-01-01T11:00Z', '2030-01-01T11:00Z'),
                      ('acme', 'crm', 'edge', 'E-6', 1, 'starts at to', '2030-01-01T11:00Z', '2030-01-01T12:00Z'),
                      ('acme', 'crm', 'edge', 'E-7', 1, 'overlaps from', '2030-01-01T09:30Z', '2030-01-01T10:01Z'),
                      ('acme', 'crm', 'edge', 'E-8', 1, 'overlaps to', '2030-01-01T10:59Z', '2030-01-01T13:00Z')`),
    );
    const res = await get(
      '/Calendar/events?from=2030-01-01T10:00:00Z&to=2030-01-01T11:00:00Z',
      product(crm, 'crm'),
    );
    expect(res.body.value.items.map((i) => i.title)).toEqual([
      'spans',
      'overlaps from',
      'instant at from',
      'inside',
      'overlaps to',
    ]);
    expect(res.body.value.total).toBe(5);
  });

  it('lists an entity under every type its product filed it, in start order, and nothing of others', async () => {
    await withClient(fx.db.url, (c) =>
      c.query(`INSERT INTO calendar.events (account_id, product_id, entity_type, entity_id, version, title,
                 starts_at, ends_at, status)
               VALUES ('acme', 'crm', 'zz-last-type', 'X-1', 1, 'z', '2031-01-03T00:00Z', '2031-01-03T01:00Z', 'confirmed'),
                      ('acme', 'crm', 'a-first-type', 'X-1', 1, 'a', '2031-01-02T00:00Z', '2031-01-02T01:00Z', 'cancelled'),
                      ('acme', 'crm', 'm-type', 'X-1', 1, 'm', '2031-01-01T00:00Z', '2031-01-01T01:00Z', 'tentative'),
                      ('acme', 'crm', 'm-type', 'X-2', 1, 'other entity', '2031-01-01T00:00Z', NULL, 'confirmed'),
                      ('acme', 'busy', 'm-type', 'X-1', 1, 'other product', '2031-01-01T00:00Z', NULL, 'confirmed')`),
    );
    const all = await get('/Calendar/listByEntity?entity_id=X-1', product(crm, 'crm'));
    expect(all.body.value.items.map((i) => i.title)).toEqual(['m', 'a', 'z']);
    expect(all.body.value.total).toBe(3);
    // A FreeBusy-only product gets its own entity as busy blocks, the cancelled one left out.
    const own = await get('/Calendar/listByEntity?entity_id=X-1', product(busy, 'busy'));
    expect(own.body.value).toEqual({
      items: [
        { start: { date_time: '2031-01-01T00:00:00.000Z' }, end: null, all_day: false, free_busy: 'busy' },
      ],
      total: 1,
    });
    const none = await get('/Calendar/listByEntity?entity_id=X-404', product(crm, 'crm'));
    expect(none.body.value).toEqual({ items: [], total: 0 });
  });

  it("narrows a person's view to their teams whatever they ask, in the same statement", async () => {
    const week = 'from=2026-11-30T00:00:00Z&to=2026-12-07T00:00:00Z';
    const count = async (sub: string, q: string) =>
      (await get(`/Calendar/events?${week}&${q}`, { PlatformSession: await fx.session(sub) })).body.value
        .total;
    // bob (sales, ops) may ask for carol (ops); alice (sales) may not, though carol is on her event.
    expect(await count('bob', 'person=carol')).toBe(1);
    expect(await count('alice', 'person=carol')).toBe(0);
    // ops is bob and carol; alice sees only bob of them: his two events.
    expect(await count('alice', 'team=ops')).toBe(2);
    expect(await count('alice', 'team=ops&person=bob')).toBe(2);
    expect(await count('alice', 'team=ops&person=carol')).toBe(0);
    expect(await count('alice', 'team=nobody')).toBe(0);
    expect(await count('dave', '')).toBe(0);
    const byTeam = await get(`/Calendar/events?${week}&team=ops&person=bob`, product(crm, 'crm'));
    expect(byTeam.body.value.total).toBe(2);
  });
});
