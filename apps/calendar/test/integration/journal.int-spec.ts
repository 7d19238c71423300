import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { listen, readRouteManifest, request, runFuzz, serviceEnv, withClient } from '@platform/testing';
import { createCalendarApp } from '../../src/bootstrap';
import type { JournalPage as Page } from '../../src/events/journal.service';
import { JournalKinds1764500000000 } from '../../src/migrations/1764500000000-journal-kinds';
import { ensureAccount, grantPermissions } from './calendar-admin';
import { startCalendar, type CalendarFixture } from './calendar-fixture';

type Env<T> = {
  success: boolean;
  code: number;
  error: string | null;
  value: T & { reason?: string; resync_cursor?: number; snapshot?: string; fields?: { field: string }[] };
};

/**
 * GET /Calendar/journal (issue 26, decision 0042): every write's entry after a cursor, gap-free, in
 * pages; what changed, the event now or a tombstone; the events query's readers and redaction, with
 * `next_cursor` moving over what a reader may not see; coded refusals with the resync hint.
 */
describe('GET /Calendar/journal (real PostgreSQL)', () => {
  let fx: CalendarFixture;
  let crm: string;
  let busy: string;
  const timed = (day: number, hour = 10) => ({
    start: { date_time: `2099-12-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00Z` },
    end: { date_time: `2099-12-${String(day).padStart(2, '0')}T${String(hour + 1).padStart(2, '0')}:00:00Z` },
  });
  const as = (key: string, product: string, account = 'acme') => ({
    API_KEY: key,
    AccountId: account,
    ProductId: product,
  });
  const upsert = async (body: Record<string, unknown>, headers = as(crm, 'crm')) => {
    const res = await request<Env<{ id: string; version: number }>>(`${fx.base}/Calendar/upsert`, {
      headers,
      body,
    });
    expect(res.status).toBeLessThan(300);
    return { ...res.body.value, cursor: Number(res.headers.get('x-journal-cursor')) };
  };
  const remove = async (body: Record<string, unknown>, headers = as(crm, 'crm')) => {
    const res = await request<Env<{ cursor: number }>>(`${fx.base}/Calendar/remove`, { headers, body });
    expect(res.status).toBe(200);
    return res.body.value.cursor;
  };
  const journal = (query: string, headers: Record<string, string>, base = fx.base) =>
    request<Env<Page>>(`${base}/Calendar/journal${query}`, { headers });
  /** Every page from `after` with `limit`, as the client would walk them. */
  const walk = async (headers: Record<string, string>, limit: number, after = 0, base = fx.base) => {
    const pages: Page[] = [];
    for (let guard = 0; guard < 1000; guard++) {
      const res = await journal(`?after=${after}&limit=${limit}`, headers, base);
      expect(res.status).toBe(200);
      pages.push(res.body.value);
      expect(res.body.value.next_cursor).toBeGreaterThanOrEqual(after);
      after = res.body.value.next_cursor;
      if (!res.body.value.has_more) break;
    }
    return pages;
  };
  const lastCursor = async (account = 'acme') =>
    withClient(fx.db.url, async (c) =>
      Number(
        (await c.query(`SELECT last_cursor FROM calendar.account_cursors WHERE account_id = $1`, [account]))
          .rows[0]?.last_cursor ?? 0,
      ),
    );

  beforeAll(async () => {
    fx = await startCalendar('calendar_journal', { CALENDAR_WRITE_LIMIT: '100000' });
    crm = await fx.product('crm', ['Push', 'Read']);
    busy = await fx.product('busy', ['FreeBusy']);
    await withClient(fx.db.url, (c) =>
      c.query(`INSERT INTO calendar.team_members (account_id, team_id, person_id)
               VALUES ('acme', 'ops', 'alice'), ('acme', 'ops', 'bob')`),
    );
  });

  afterAll(async () => {
    await fx?.close();
  });

  it('pages through many entries with a limit: every cursor once, in order, none missing', async () => {
    for (let i = 0; i < 23; i++) await upsert({ entity_type: 'page', entity_id: `P-${i}`, ...timed(1) });
    for (let i = 0; i < 23; i += 3) await upsert({ entity_type: 'page', entity_id: `P-${i}`, version: 1 });
    for (let i = 1; i < 23; i += 5) await remove({ entity_type: 'page', entity_id: `P-${i}` });
    const last = await lastCursor();
    const pages = await walk(as(crm, 'crm'), 7);
    const cursors = pages.flatMap((p) => p.items.map((e) => e.cursor));
    expect(cursors).toEqual(Array.from({ length: last }, (_, i) => i + 1));
    expect(pages.slice(0, -1).every((p) => p.items.length === 7 && p.has_more)).toBe(true);
    expect(pages.at(-1)).toMatchObject({ next_cursor: last, has_more: false });
    // A write's X-Journal-Cursor is a position to read on from; the end answers an empty page there.
    const w = await upsert({ entity_type: 'page', entity_id: 'P-next', ...timed(2) });
    const after = await journal(`?after=${w.cursor - 1}`, as(crm, 'crm'));
    expect(after.body.value.items.map((e) => [e.cursor, e.kind, e.event_id])).toEqual([
      [w.cursor, 'created', w.id],
    ]);
    const end = await journal(`?after=${w.cursor}`, as(crm, 'crm'));
    expect(end.body.value).toEqual({ items: [], next_cursor: w.cursor, has_more: false });
    // Without parameters: from the start, 100 entries.
    const first = await journal('', as(crm, 'crm'));
    expect(first.body.value.items[0].cursor).toBe(1);
  });

  it('says what each write did: created, updated, invited, answered, conference_attached, removed; the event now, then a tombstone', async () => {
    const triple = { entity_type: 'deal', entity_id: 'K-1' };
    const created = await upsert({ ...triple, title: 'Kickoff', owner: 'bob', ...timed(3) });
    await upsert({ ...triple, version: 1, title: 'Kickoff, moved', owner: 'bob', ...timed(3, 12) });
    const invited = await request<Env<unknown>>(`${fx.base}/Calendar/invite`, {
      headers: as(crm, 'crm'),
      body: { ...triple, attendees: [{ kind: 'person', id: 'alice' }] },
    });
    expect(invited.status).toBe(200);
    const answered = await request<Env<unknown>>(`${fx.base}/Calendar/rsvp`, {
      headers: { PlatformSession: await fx.session('alice') },
      body: { product_id: 'crm', ...triple, answer: 'ACCEPTED' },
    });
    expect(answered.status).toBe(200);
    const room = await request<Env<unknown>>(`${fx.base}/Calendar/attachConference`, {
      headers: as(crm, 'crm'),
      body: triple,
    });
    expect(room.status).toBe(200);

    const before = await journal(`?after=${created.cursor - 1}`, as(crm, 'crm'));
    expect(before.body.value.items.map((e) => [e.kind, e.version])).toEqual([
      ['created', 1],
      ['updated', 2],
      ['invited', 3],
      ['answered', 4],
      ['conference_attached', 5],
    ]);
    for (const e of before.body.value.items) {
      expect(e).toMatchObject({ event_id: created.id, product_id: 'crm', ...triple, tombstone: null });
      // The event as the events API shows it now, whichever entry carries it.
      expect(e.event).toMatchObject({ id: created.id, version: 5, title: 'Kickoff, moved' });
      expect(e.event).toHaveProperty('conference');
      expect(Date.parse(e.at)).not.toBeNaN();
    }

    const removedAt = await remove(triple);
    const after = await journal(`?after=${created.cursor - 1}`, as(crm, 'crm'));
    const entries = after.body.value.items;
    expect(entries.map((e) => e.kind)).toEqual([
      'created',
      'updated',
      'invited',
      'answered',
      'conference_attached',
      'removed',
    ]);
    // Gone: no entry carries it any more, and the removal is a tombstone.
    expect(entries.map((e) => e.event)).toEqual([null, null, null, null, null, null]);
    const tomb = entries[5];
    expect(tomb).toMatchObject({ cursor: removedAt, version: 5, ...triple });
    expect(tomb.tombstone).toEqual({ event_id: created.id, version: 5, removed_at: tomb.at });
  });

  it('gives a FreeBusy-only key busy blocks without identity or version, only for changes a busy block can show', async () => {
    const triple = { entity_type: 'deal', entity_id: 'F-1' };
    const c = await upsert({ ...triple, title: 'Merger talks', owner: 'bob', ...timed(5) });
    await upsert({ ...triple, version: 1, title: 'Merger talks (secret)', owner: 'bob', ...timed(5) });
    await request(`${fx.base}/Calendar/invite`, {
      headers: as(crm, 'crm'),
      body: { ...triple, attendees: [{ kind: 'email', email: 'x@example.com' }] },
    });
    const moved = await upsert({
      ...triple,
      version: 3,
      title: 'Merger talks (secret)',
      owner: 'bob',
      ...timed(5, 14),
    });
    await upsert({
      ...triple,
      version: 4,
      status: 'cancelled',
      title: 'Merger talks (secret)',
      ...timed(5, 14),
    });
    const gone = await remove(triple);
    const after = `?after=${c.cursor - 1}`;

    const full = await journal(after, as(crm, 'crm'));
    expect(full.body.value.items.map((e) => e.kind)).toEqual([
      'created',
      'updated',
      'invited',
      'updated',
      'updated',
      'removed',
    ]);
    const res = await journal(after, as(busy, 'busy'));
    expect(res.status).toBe(200);
    // The title change and the invitation are hidden fields: not shown. Both keys end at the same place.
    expect(res.body.value.items.map((e) => [e.cursor, e.kind])).toEqual([
      [c.cursor, 'created'],
      [moved.cursor, 'updated'],
      [moved.cursor + 1, 'updated'],
      [gone, 'removed'],
    ]);
    expect(res.body.value.next_cursor).toBe(full.body.value.next_cursor);
    for (const e of res.body.value.items) {
      expect(e).toMatchObject({
        event_id: c.id,
        product_id: null,
        entity_type: null,
        entity_id: null,
        version: null,
      });
    }
    expect(res.body.value.items[3].tombstone).toEqual({
      event_id: c.id,
      version: null,
      removed_at: res.body.value.items[3].at,
    });
    expect(JSON.stringify(res.body.value)).not.toContain('Merger');
    expect(JSON.stringify(res.body.value)).not.toContain('F-1');

    // While it exists: a busy block, and nothing once it is cancelled (no busy time).
    const live = await upsert({ entity_type: 'deal', entity_id: 'F-2', title: 'Board', ...timed(6) });
    const [block] = (await journal(`?after=${live.cursor - 1}`, as(busy, 'busy'))).body.value.items;
    expect(block.event).toEqual({
      start: { date_time: '2099-12-06T10:00:00.000Z' },
      end: { date_time: '2099-12-06T11:00:00.000Z' },
      all_day: false,
      free_busy: 'busy',
    });
    await upsert({ entity_type: 'deal', entity_id: 'F-2', version: 1, status: 'cancelled', ...timed(6) });
    const cancelled = (await journal(`?after=${live.cursor - 1}`, as(busy, 'busy'))).body.value.items;
    expect(cancelled.map((e) => [e.kind, e.event])).toEqual([
      ['created', null],
      ['updated', null],
    ]);
  });

  it("shows a person their own events, a teammate's private event as busy blocks and a stranger's not at all, yet next_cursor moves past it", async () => {
    const start = await lastCursor();
    const own = await upsert({
      entity_type: 'deal',
      entity_id: 'A-own',
      title: 'Alice 1:1',
      owner: 'alice',
      ...timed(7),
    });
    const mate = await upsert({
      entity_type: 'deal',
      entity_id: 'B-private',
      title: 'Doctor',
      visibility: 'private',
      owner: 'bob',
      ...timed(8),
    });
    const mateOpen = await upsert({
      entity_type: 'deal',
      entity_id: 'B-open',
      title: 'Standup',
      owner: 'bob',
      ...timed(9),
    });
    const stranger = await upsert({
      entity_type: 'deal',
      entity_id: 'C-1',
      title: 'Carol only',
      owner: 'carol',
      ...timed(10),
    });
    await upsert({
      entity_type: 'deal',
      entity_id: 'C-2',
      title: 'Carol again',
      owner: 'carol',
      ...timed(11),
    });

    const alice = { PlatformSession: await fx.session('alice') };
    const res = await journal(`?after=${start}`, alice);
    expect(res.status).toBe(200);
    const seen = res.body.value.items;
    expect(seen.map((e) => e.cursor)).toEqual([own.cursor, mate.cursor, mateOpen.cursor]);
    expect(seen[0]).toMatchObject({ entity_id: 'A-own', version: 1, event: { title: 'Alice 1:1' } });
    expect(seen[1]).toMatchObject({ event_id: mate.id, entity_id: null, version: null });
    expect(seen[1].event).toEqual({
      start: { date_time: '2099-12-08T10:00:00.000Z' },
      end: { date_time: '2099-12-08T11:00:00.000Z' },
      all_day: false,
      free_busy: 'busy',
    });
    expect(seen[2]).toMatchObject({ entity_id: 'B-open', event: { title: 'Standup' } });
    expect(JSON.stringify(res.body.value)).not.toMatch(/Doctor|Carol|C-1/);
    // The stranger's entries are not shown, but the cursor covers them: nothing is waiting.
    expect(res.body.value).toMatchObject({ next_cursor: stranger.cursor + 1, has_more: false });
    // In small pages the same: a page holding only hidden entries is empty and still moves on.
    const small = await walk(alice, 1, mateOpen.cursor);
    expect(small.map((p) => [p.items.length, p.next_cursor])).toEqual([[0, stranger.cursor + 1]]);
    // Bob reads his own private event in full.
    const bob = await journal(`?after=${mate.cursor - 1}&limit=1`, {
      PlatformSession: await fx.session('bob'),
    });
    expect(bob.body.value.items[0]).toMatchObject({ entity_id: 'B-private', event: { title: 'Doctor' } });

    // A new title of the private event is nothing alice can see; a new time is.
    const priv = { entity_type: 'deal', entity_id: 'B-private', visibility: 'private', owner: 'bob' };
    await upsert({ ...priv, version: 1, title: 'Dentist', ...timed(8) });
    const movedMate = await upsert({ ...priv, version: 2, title: 'Dentist', ...timed(8, 15) });
    const later = await journal(`?after=${stranger.cursor + 1}`, alice);
    expect(later.body.value.items.map((e) => e.cursor)).toEqual([movedMate.cursor]);
    expect(JSON.stringify(later.body.value)).not.toContain('Dentist');
    // Her event handed to a stranger: she learns it left her view (no event), nothing of it now.
    const handed = await upsert({
      entity_type: 'deal',
      entity_id: 'A-own',
      version: 1,
      title: 'Carol now',
      owner: 'carol',
      ...timed(7),
    });
    const left = await journal(`?after=${movedMate.cursor}`, alice);
    expect(left.body.value.items).toEqual([
      expect.objectContaining({ cursor: handed.cursor, kind: 'updated', entity_id: 'A-own', event: null }),
    ]);
    expect(JSON.stringify(left.body.value)).not.toContain('Carol now');
  });

  it('refuses a cursor past the last entry (400) and one older than the journal keeps (410), each with the resync hint', async () => {
    const last = await lastCursor();
    const past = await journal(`?after=${last + 1}`, as(crm, 'crm'));
    expect([past.status, past.body.value.reason]).toEqual([400, 'CALENDAR_JOURNAL_CURSOR_UNKNOWN']);
    expect(past.body.value).toMatchObject({ resync_cursor: last, snapshot: 'GET /Calendar/events' });
    expect(past.body.error).toContain(String(last + 1));
    const ru = await request<Env<Page>>(`${fx.base}/Calendar/journal?after=${last + 5}`, {
      headers: { ...as(crm, 'crm'), 'Language-Code': 'ru' },
    });
    expect(ru.body.error).toMatch(/Курсор/);

    // Another account, whose oldest entries are gone (as a prune would leave it).
    await ensureAccount(fx.app, 'globex', 'Globex');
    await grantPermissions(fx.app, 'globex', 'crm', ['Push', 'Read']);
    const g = as(crm, 'crm', 'globex');
    for (let i = 0; i < 5; i++) await upsert({ entity_type: 'deal', entity_id: `G-${i}` }, g);
    await withClient(fx.db.url, (c) =>
      c.query(`DELETE FROM calendar.journal WHERE account_id = 'globex' AND cursor <= 3`),
    );
    const expired = await journal('?after=2', g);
    expect([expired.status, expired.body.value.reason]).toEqual([410, 'CALENDAR_JOURNAL_CURSOR_EXPIRED']);
    expect(expired.body.value).toMatchObject({ resync_cursor: 5, snapshot: 'GET /Calendar/events' });
    expect(expired.body.success).toBe(false);
    expect((await journal('?after=0', g)).status).toBe(410);
    // From the first retained entry on, it goes on.
    const kept = await journal('?after=3', g);
    expect(kept.body.value.items.map((e) => e.cursor)).toEqual([4, 5]);
    // Nothing retained: only the last cursor continues.
    await withClient(fx.db.url, (c) => c.query(`DELETE FROM calendar.journal WHERE account_id = 'globex'`));
    expect((await journal('?after=4', g)).status).toBe(410);
    expect((await journal('?after=5', g)).body.value).toEqual({ items: [], next_cursor: 5, has_more: false });
    // The other account's cursors are not this one's.
    expect((await journal(`?after=${last}`, g)).body.value.reason).toBe('CALENDAR_JOURNAL_CURSOR_UNKNOWN');
  });

  it.each([
    ['after=abc', 'after'],
    ['after=-1', 'after'],
    ['after=1.5', 'after'],
    ['after=1e3', 'after'],
    ['after=99999999999999999999', 'after'],
    ['limit=0', 'limit'],
    ['limit=501', 'limit'],
    ['limit=ten', 'limit'],
  ])('answers a malformed %s with 400 VALIDATION_FAILED', async (query, field) => {
    const res = await journal(`?${query}`, as(crm, 'crm'));
    expect([res.status, res.body.value.reason]).toEqual([400, 'VALIDATION_FAILED']);
    expect([...new Set(res.body.value.fields?.map((f) => f.field))]).toEqual([field]);
  });

  it('needs Read or FreeBusy', async () => {
    const push = await fx.product('push-only', ['Push']);
    const res = await journal('', as(push, 'push-only'));
    expect([res.status, res.body.value.reason]).toEqual([403, 'CALENDAR_GRANT_MISSING']);
  });

  it('survives the fuzz harness on its manifest entry, as a product and as a person: no 5xx, every refusal in the envelope', async () => {
    const routes = readRouteManifest('calendar').filter((r) => r.path === '/Calendar/journal');
    expect(routes.map((r) => r.method)).toEqual(['GET']);
    const alice = await fx.session('alice');
    const target = (credentials: Record<string, string>) => ({
      app: 'calendar',
      routes,
      urlFor: () => `${fx.base}/Calendar/journal`,
      credentials: () => credentials,
      readyUrl: `${fx.base}/health/live`,
    });
    const report = await runFuzz([target(as(crm, 'crm')), target({ PlatformSession: alice })], [fx.base], {
      seed: 20261226,
      randomPerRoute: 40,
      concurrency: 4,
      timeoutMs: 15000,
    });
    expect(report.requests).toBeGreaterThan(80);
    expect(report.failures).toEqual([]);
    expect(report.notReady).toEqual([]);
    expect(Object.keys(report.byStatus).filter((s) => s.startsWith('5'))).toEqual([]);
  }, 120_000);

  describe('two calendar instances on one database', () => {
    let second: INestApplication;
    let secondBase: string;

    beforeAll(async () => {
      second = await createCalendarApp(serviceEnv(fx.db.url, { CALENDAR_WRITE_LIMIT: '100000' }), false);
      secondBase = await listen(second);
    });

    afterAll(async () => {
      await second?.close();
    });

    it('give the same pages, whichever instance took the writes', async () => {
      for (let i = 0; i < 6; i++) {
        const base = i % 2 ? secondBase : fx.base;
        const res = await request(`${base}/Calendar/upsert`, {
          headers: as(crm, 'crm'),
          body: { entity_type: 'two', entity_id: `T-${i}`, ...timed(12) },
        });
        expect(res.status).toBe(201);
      }
      for (const [key, product] of [
        [crm, 'crm'],
        [busy, 'busy'],
      ]) {
        const one = await walk(as(key, product), 9);
        const two = await walk(as(key, product), 9, 0, secondBase);
        expect(two).toEqual(one);
        expect(one.at(-1)?.next_cursor).toBe(await lastCursor());
      }
    });
  });
  // Last: it rewrites every row's kind (those of the tests above included) down and up again.
  it('migration JournalKinds maps the rows written before it: upsert at version 1 created, later upserts updated, remove removed', async () => {
    const qr = fx.app.get(DataSource).createQueryRunner();
    const migration = new JournalKinds1764500000000();
    try {
      await migration.down(qr);
      await withClient(fx.db.url, (c) =>
        c.query(`INSERT INTO calendar.journal (account_id, kind, event_id, product_id, entity_type, entity_id, version)
          VALUES ('acme', 'upsert', gen_random_uuid(), 'crm', 'old', 'O-1', 1),
                 ('acme', 'upsert', gen_random_uuid(), 'crm', 'old', 'O-1', 2),
                 ('acme', 'remove', gen_random_uuid(), 'crm', 'old', 'O-1', 2)`),
      );
      await migration.up(qr);
    } finally {
      await qr.release();
    }
    const rows = await withClient(fx.db.url, async (c) =>
      (
        await c.query(
          `SELECT kind, version, busy_changed FROM calendar.journal WHERE entity_type = 'old' ORDER BY cursor`,
        )
      ).rows.map((r) => [r.kind, r.version, r.busy_changed]),
    );
    expect(rows).toEqual([
      ['created', 1, true],
      ['updated', 2, true],
      ['removed', 2, true],
    ]);
    // The constraint holds the new kinds only.
    await expect(
      withClient(fx.db.url, (c) =>
        c.query(`INSERT INTO calendar.journal (account_id, kind, event_id, product_id, entity_type, entity_id, version)
          VALUES ('acme', 'upsert', gen_random_uuid(), 'crm', 'old', 'O-2', 1)`),
      ),
    ).rejects.toThrow(/journal_kind_check/);
  });
});
