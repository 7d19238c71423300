import { request, withClient } from '@platform/testing';
import { JitsiConferenceProvider, StubConferenceProvider } from '../../src/conference/conference.provider';
import { startCalendar, type CalendarFixture } from './calendar-fixture';

type Env<T = Record<string, unknown>> = { success: boolean; code: number; error: string | null; value: T };
type Conf = { provider: string; url: string; room_id: string; created_at: string };
type Ev = { id: string; version: number; conference?: Conf; title: string | null };

describe.each(['stub', 'jitsi'] as const)(
  'POST /Calendar/attachConference, %s provider (real PostgreSQL)',
  (provider) => {
    let cal: CalendarFixture;
    let crm: string;
    let erp: string;
    const as = (key: string, product = 'crm', extra: Record<string, string> = {}) => ({
      API_KEY: key,
      AccountId: 'acme',
      ProductId: product,
      ...extra,
    });
    const upsert = (body: Record<string, unknown>) =>
      request<Env<Ev>>(`${cal.base}/Calendar/upsert`, { headers: as(crm), body });
    const attach = (body: Record<string, unknown>, headers: Record<string, string> = as(crm)) =>
      request<Env<Ev & { reason?: string; current?: Ev }>>(`${cal.base}/Calendar/attachConference`, {
        headers,
        body,
      });

    beforeAll(async () => {
      cal = await startCalendar(`cal_conf_${provider}`, { CALENDAR_CONFERENCE_PROVIDER: provider });
      crm = await cal.product('crm', ['Push', 'Read']);
      erp = await cal.product('erp', ['Push', 'Read']);
    });

    afterAll(async () => {
      await cal?.close();
    });

    it('attaches once: the same room twice, the version bumped once, one journal entry and outbox event in the write', async () => {
      const created = await upsert({
        entity_type: 'deal',
        entity_id: 'C-1',
        title: 'Kick-off',
        owner: 'p-1',
      });
      const first = await attach({ entity_type: 'deal', entity_id: 'C-1', version: 1 });
      expect(first.status).toBe(200);
      expect(first.body.value).toMatchObject({ id: created.body.value.id, version: 2, title: 'Kick-off' });
      const room = first.body.value.conference as Conf;
      expect(room.provider).toBe(provider);
      expect(first.headers.get('x-journal-cursor')).toBe(
        String(Number(created.headers.get('x-journal-cursor')) + 1),
      );
      // Again, even with the version it sent before: the same room, nothing written.
      const again = await attach({ entity_type: 'deal', entity_id: 'C-1', version: 1 });
      expect(again.status).toBe(200);
      expect(again.body.value).toMatchObject({ version: 2, conference: room });
      expect(again.headers.get('x-journal-cursor')).toBeNull();

      const rows = await withClient(cal.db.url, async (c) => ({
        outbox: (
          await c.query(`SELECT topic, payload FROM calendar.outbox WHERE aggregate_id = $1 ORDER BY seq`, [
            created.body.value.id,
          ])
        ).rows,
        journal: (
          await c.query(
            `SELECT kind, version, xmin::text AS tx FROM calendar.journal WHERE event_id = $1 ORDER BY cursor`,
            [created.body.value.id],
          )
        ).rows,
        event: (
          await c.query(`SELECT conference, xmin::text AS tx FROM calendar.events WHERE id = $1`, [
            created.body.value.id,
          ])
        ).rows[0],
        outboxTx: (
          await c.query(
            `SELECT xmin::text AS tx FROM calendar.outbox WHERE aggregate_id = $1 AND payload->>'version' = '2'`,
            [created.body.value.id],
          )
        ).rows[0].tx,
      }));
      expect(rows.outbox.map((r) => [r.topic, r.payload.version, r.payload.title])).toEqual([
        ['calendar.event.changed.v1', 1, 'Kick-off'],
        ['calendar.event.changed.v1', 2, 'Kick-off'],
      ]);
      expect(rows.outbox[1].payload).toMatchObject({
        eventId: created.body.value.id,
        accountId: 'acme',
        productId: 'crm',
        entityType: 'deal',
        entityId: 'C-1',
        status: 'confirmed',
        startsAt: null,
      });
      expect(rows.journal.map((j) => [j.kind, j.version])).toEqual([
        ['created', 1],
        ['conference_attached', 2],
      ]);
      // One transaction wrote the room, the journal entry and the outbox event.
      expect(rows.journal[1].tx).toBe(rows.event.tx);
      expect(rows.outboxTx).toBe(rows.event.tx);
      expect(rows.event.conference).toEqual(room);
    });

    it('shows the room in listByEntity, events and later upserts', async () => {
      await upsert({ entity_type: 'deal', entity_id: 'C-2', title: 'Review' });
      const { body } = await attach({ entity_type: 'deal', entity_id: 'C-2' });
      const room = body.value.conference;
      const listed = await request<Env<{ items: Ev[] }>>(
        `${cal.base}/Calendar/listByEntity?entity_type=deal&entity_id=C-2`,
        { headers: as(crm) },
      );
      expect(listed.body.value.items[0].conference).toEqual(room);
      const updated = await upsert({ entity_type: 'deal', entity_id: 'C-2', version: 2, title: 'Review 2' });
      expect(updated.body.value).toMatchObject({ version: 3, conference: room });
      const searched = await request<Env<{ items: (Ev & { entity_id: string })[] }>>(
        `${cal.base}/Calendar/events?limit=250`,
        { headers: as(crm) },
      );
      expect(searched.body.value.items.find((e) => e.entity_id === 'C-2')?.conference).toEqual(room);
    });

    it('answers a stale version with 409 and the current event, and writes nothing', async () => {
      await upsert({ entity_type: 'deal', entity_id: 'C-3', title: 'A' });
      await upsert({ entity_type: 'deal', entity_id: 'C-3', title: 'B', version: 1 });
      const stale = await attach({ entity_type: 'deal', entity_id: 'C-3', version: 1 });
      expect(stale.status).toBe(409);
      expect(stale.body.value).toMatchObject({
        reason: 'CALENDAR_VERSION_CONFLICT',
        current: { version: 2 },
      });
      expect(stale.body.value.current?.conference).toBeUndefined();
    });

    it('lets only the owning product or the owner person attach; 404 for unknown and other accounts', async () => {
      await upsert({ entity_type: 'deal', entity_id: 'C-4', owner: 'alice' });
      const other = await attach(
        { product_id: 'crm', entity_type: 'deal', entity_id: 'C-4' },
        as(erp, 'erp'),
      );
      expect([other.status, other.body.value.reason]).toEqual([403, 'CALENDAR_NOT_OWNER']);
      const notFound = await attach({ entity_type: 'deal', entity_id: 'nope' });
      expect([notFound.status, notFound.body.value.reason]).toEqual([404, 'CALENDAR_EVENT_NOT_FOUND']);

      const bob = { PlatformSession: await cal.session('bob') };
      const notHis = await attach({ product_id: 'crm', entity_type: 'deal', entity_id: 'C-4' }, bob);
      expect([notHis.status, notHis.body.value.reason]).toEqual([403, 'CALENDAR_NOT_EVENT_OWNER']);
      const alice = { PlatformSession: await cal.session('alice') };
      const noProduct = await attach({ entity_type: 'deal', entity_id: 'C-4' }, alice);
      expect(noProduct.status).toBe(400);
      const hers = await attach({ product_id: 'crm', entity_type: 'deal', entity_id: 'C-4' }, alice);
      expect(hers.status).toBe(200);
      expect(hers.body.value.conference?.provider).toBe(provider);

      const elsewhere = { PlatformSession: await cal.session('alice', [], 'globex') };
      const foreign = await attach({ product_id: 'crm', entity_type: 'deal', entity_id: 'C-4' }, elsewhere);
      expect([foreign.status, foreign.body.value.reason]).toEqual([404, 'CALENDAR_EVENT_NOT_FOUND']);
    });

    it('localises its errors', async () => {
      const ru = await attach(
        { entity_type: 'deal', entity_id: 'nope' },
        as(crm, 'crm', { 'Language-Code': 'ru' }),
      );
      expect(ru.body).toMatchObject({
        success: false,
        code: 404,
        error: 'В этом аккаунте нет такого события.',
      });
      const es = await attach(
        { entity_type: 'deal', entity_id: 'nope' },
        as(crm, 'crm', { 'Language-Code': 'es' }),
      );
      expect(es.body.error).toBe('No existe ese evento en esta cuenta.');
    });

    it('refuses hostile input with 400, never 500', async () => {
      for (const body of [
        { entity_type: 'deal', entity_id: 'C\u0000-1' },
        { entity_type: 'deal', entity_id: 'C-1', version: 1e308 },
        { entity_type: 'deal', entity_id: 'C-1', version: 2 ** 31 },
        { entity_type: 'deal', entity_id: 'x'.repeat(257) },
        JSON.parse('{"entity_type":"deal","entity_id":"C-1","__proto__":{"x":1}}') as Record<string, unknown>,
        { entity_type: ['deal'], entity_id: 'C-1' },
      ]) {
        const res = await attach(body);
        expect([res.status, res.body.success]).toEqual([400, false]);
      }
    });
  },
);

describe('conference providers', () => {
  it('stub: the same event gets the same room, on the .invalid domain', async () => {
    const stub = new StubConferenceProvider();
    const a = await stub.createRoom('7c0b8b8e-4f6a-4b0e-9a5e-2f1d2c3b4a59');
    expect(await stub.createRoom('7c0b8b8e-4f6a-4b0e-9a5e-2f1d2c3b4a59')).toEqual(a);
    expect(a.url).toBe(`https://stub.conference.invalid/${a.room_id}`);
    expect(a.room_id).toMatch(/^stub-[A-Za-z0-9_-]{22}$/);
    expect((await stub.createRoom('another')).room_id).not.toBe(a.room_id);
  });

  it('jitsi: unguessable URL-safe room names (160 random bits) on the configured base URL', async () => {
    const jitsi = new JitsiConferenceProvider('https://meet.example.org/');
    const rooms = await Promise.all(Array.from({ length: 200 }, () => jitsi.createRoom()));
    for (const r of rooms) {
      expect(r.room_id).toMatch(/^Meet-[A-Za-z0-9_-]{27}$/);
      expect(r.url).toBe(`https://meet.example.org/${r.room_id}`);
      expect(Buffer.from(r.room_id.slice(5), 'base64url')).toHaveLength(20);
    }
    expect(new Set(rooms.map((r) => r.room_id)).size).toBe(200);
  });
});
