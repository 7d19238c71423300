import type { INestApplication } from '@nestjs/common';
import { Client, type Notification } from 'pg';
import { CalendarEventChanged, CalendarEventRemoved, violations } from '@platform/messaging';
import { OUTBOX_CHANNEL } from '@platform/outbox';
import { createTestDatabase, eventually, listen, request, serviceEnv, withClient } from '@platform/testing';
import { createCalendarApp } from '../../src/bootstrap';
import { EventsService } from '../../src/events/events.service';
import { asAccountId, asProductId } from '../../src/tenancy/tenant-ids';
import {
  ensureAccount,
  ensureProduct,
  grantPermissions,
  issueProductKey,
  revokeProductKey,
} from './calendar-admin';

type Env<T = Record<string, unknown>> = { success: boolean; code: number; error: string | null; value: T };
type Ev = {
  id: string;
  version: number;
  title: string | null;
  start: Record<string, string> | null;
  end: Record<string, string> | null;
  all_day: boolean;
};

describe('calendar product-event contract (real PostgreSQL)', () => {
  let app: INestApplication;
  let base: string;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let crm: { token: string; keyId: string };
  let erp: { token: string; keyId: string };
  const as = (key: { token: string }, product = 'crm', extra: Record<string, string> = {}) => ({
    API_KEY: key.token,
    AccountId: 'acme',
    ProductId: product,
    ...extra,
  });
  const upsert = (body: Record<string, unknown>, headers = as(crm)) =>
    request<Env<Ev & Record<string, unknown>>>(`${base}/Calendar/upsert`, { headers, body });

  beforeAll(async () => {
    db = await createTestDatabase('calendar_events');
    app = await createCalendarApp(serviceEnv(db.url), false);
    base = await listen(app);
    await ensureAccount(app, 'acme', 'Acme');
    await ensureProduct(app, 'crm', 'CRM');
    await ensureProduct(app, 'erp', 'ERP');
    crm = await issueProductKey(app, 'crm', 'test');
    erp = await issueProductKey(app, 'erp', 'test');
    await grantPermissions(app, 'acme', 'crm', ['Push', 'Read']);
    await grantPermissions(app, 'acme', 'erp', ['Push', 'Read']);
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('creates with 201, updates the same record with 200 (+1 version), one outbox event and journal entry per write', async () => {
    const body = {
      entity_type: 'deal',
      entity_id: 'D-1',
      title: 'Kick-off',
      description: 'Agenda attached',
      location: 'Room 301',
      start: { date_time: '2026-12-01T10:00:00+05:00', time_zone: 'Asia/Almaty' },
      end: { date_time: '2026-12-01T11:00:00+05:00', time_zone: 'Asia/Almaty' },
      owner: 'person-1',
      assignees: ['person-2', 'person-2', 'person-3'],
      resources: [{ type: 'room', id: 'r-301' }],
      recurrence: ['RRULE:FREQ=WEEKLY;COUNT=4'],
      metadata: { stage: 'won' },
    };
    const created = await upsert(body);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ success: true, code: 201, error: null });
    expect(created.body.value).toMatchObject({
      version: 1,
      // As sent: the wall time of its zone with the zone's offset, not the UTC instant.
      start: { date_time: '2026-12-01T10:00:00+05:00', time_zone: 'Asia/Almaty' },
      end: { date_time: '2026-12-01T11:00:00+05:00', time_zone: 'Asia/Almaty' },
      assignees: ['person-2', 'person-3'],
      resources: [{ type: 'room', id: 'r-301' }],
      metadata: { stage: 'won' },
      all_day: false,
    });
    const updated = await upsert({ ...body, version: 1, title: 'Kick-off (moved)' });
    expect(updated.status).toBe(200);
    expect(updated.body.value).toMatchObject({
      id: created.body.value.id,
      version: 2,
      title: 'Kick-off (moved)',
    });
    expect(Number(updated.headers.get('x-journal-cursor'))).toBe(
      Number(created.headers.get('x-journal-cursor')) + 1,
    );

    const rows = await withClient(db.url, async (c) => ({
      events: (await c.query(`SELECT count(*)::int AS n FROM calendar.events WHERE entity_id = 'D-1'`))
        .rows[0].n,
      outbox: (
        await c.query(
          `SELECT topic, tenant_id, request_id, payload FROM calendar.outbox WHERE aggregate_id = $1 ORDER BY seq`,
          [created.body.value.id],
        )
      ).rows,
      journal: (
        await c.query(`SELECT kind, version FROM calendar.journal WHERE event_id = $1 ORDER BY cursor`, [
          created.body.value.id,
        ])
      ).rows,
    }));
    expect(rows.events).toBe(1);
    expect(rows.outbox.map((r) => [r.topic, r.payload.version])).toEqual([
      ['calendar.event.changed.v1', 1],
      ['calendar.event.changed.v1', 2],
    ]);
    expect(rows.outbox[1].request_id).toBe(updated.headers.get('x-request-id'));
    expect(rows.journal).toEqual([
      { kind: 'created', version: 1 },
      { kind: 'updated', version: 2 },
    ]);
  });

  it('stores all-day events as dates with an exclusive end and midnight instants in their zone', async () => {
    const res = await upsert({
      entity_type: 'vacation',
      entity_id: 'V-1',
      start: { date: '2026-12-31', time_zone: 'Asia/Tashkent' },
    });
    expect(res.status).toBe(201);
    expect(res.body.value).toMatchObject({
      all_day: true,
      start: { date: '2026-12-31' },
      end: { date: '2027-01-01' },
    });
    const row = await withClient(db.url, (c) =>
      c.query(`SELECT starts_at FROM calendar.events WHERE entity_id = 'V-1'`),
    );
    expect((row.rows[0].starts_at as Date).toISOString()).toBe('2026-12-30T19:00:00.000Z');
  });

  it('answers a stale version with 409, the current event and a field-level diff, and writes nothing', async () => {
    const body = { entity_type: 'deal', entity_id: 'D-2', title: 'A', location: 'Here' };
    await upsert(body);
    await upsert({ ...body, version: 1, title: 'B' });
    const count = () =>
      withClient(
        db.url,
        async (c) => (await c.query('SELECT count(*)::int AS n FROM calendar.outbox')).rows[0].n as number,
      );
    const before = await count();
    const stale = await upsert(
      { ...body, version: 1, title: 'C' },
      as(crm, 'crm', { 'Language-Code': 'ru' }),
    );
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ success: false, code: 409 });
    expect(stale.body.error).toContain('версию 1');
    expect(stale.body.value).toMatchObject({
      reason: 'CALENDAR_VERSION_CONFLICT',
      current: { version: 2, title: 'B', location: 'Here' },
    });
    expect(stale.body.value.diff).toEqual([{ field: 'title', sent: 'C', current: 'B' }]);
    expect(await count()).toBe(before);
  });

  it('lets exactly one of 50 concurrent upserts with the same version win', async () => {
    const body = { entity_type: 'deal', entity_id: 'D-race', title: 'start' };
    const first = await upsert(body);
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        upsert({ ...body, version: first.body.value.version, title: `writer ${i}` }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const winner = results.find((r) => r.status === 200);
    const final = await withClient(db.url, (c) =>
      c.query(`SELECT version, title FROM calendar.events WHERE entity_id = 'D-race'`),
    );
    expect(final.rows[0]).toEqual({ version: first.body.value.version + 1, title: winner?.body.value.title });
    const journal = await withClient(db.url, (c) =>
      c.query(`SELECT count(*)::int AS n FROM calendar.journal WHERE entity_id = 'D-race'`),
    );
    expect(journal.rows[0].n).toBe(2);
  });

  it('keeps the journal cursor gap-free and monotonic per account, also across failed writes', async () => {
    await upsert({ entity_type: 'deal', entity_id: 'D-3' });
    await upsert({ entity_type: 'deal', entity_id: 'D-3', version: 7 }); // 409: must not consume a cursor
    await upsert({ entity_type: 'deal', entity_id: 'D-3', version: 1 });
    const cursors = await withClient(db.url, (c) =>
      c.query(`SELECT cursor FROM calendar.journal WHERE account_id = 'acme' ORDER BY cursor`),
    );
    const list = cursors.rows.map((r) => Number(r.cursor));
    expect(list).toEqual(Array.from({ length: list.length }, (_, i) => i + 1));
  });

  it("removes only the owner product's event; a repeat is a no-op; another product is rejected", async () => {
    const created = await upsert({ entity_type: 'deal', entity_id: 'D-4', title: 'to remove' });
    const foreign = await request<Env<{ reason: string }>>(`${base}/Calendar/remove`, {
      headers: as(erp, 'erp', { 'Language-Code': 'kk' }),
      body: { product_id: 'crm', entity_type: 'deal', entity_id: 'D-4' },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.body.value.reason).toBe('CALENDAR_NOT_OWNER');
    expect(foreign.body.error).toContain('crm');
    const removed = await request<Env<{ removed: boolean; version: number }>>(`${base}/Calendar/remove`, {
      headers: as(crm),
      body: { entity_type: 'deal', entity_id: 'D-4' },
    });
    expect(removed.status).toBe(200);
    expect(removed.body.value).toMatchObject({ removed: true, version: 1 });
    const again = await request<Env<{ removed: boolean }>>(`${base}/Calendar/remove`, {
      headers: as(crm),
      body: { entity_type: 'deal', entity_id: 'D-4' },
    });
    expect(again.status).toBe(200);
    expect(again.body.value).toMatchObject({ removed: false });
    const trail = await withClient(db.url, async (c) => ({
      outbox: (
        await c.query(`SELECT topic FROM calendar.outbox WHERE aggregate_id = $1 ORDER BY seq`, [
          created.body.value.id,
        ])
      ).rows.map((r) => r.topic),
      journal: (
        await c.query(`SELECT kind FROM calendar.journal WHERE event_id = $1 ORDER BY cursor`, [
          created.body.value.id,
        ])
      ).rows.map((r) => r.kind),
    }));
    expect(trail.outbox).toEqual(['calendar.event.changed.v1', 'calendar.event.removed.v1']);
    expect(trail.journal).toEqual(['created', 'removed']);
  });

  it('answers a create of an existing triple, and a removal at a stale version, with 409 and writes nothing', async () => {
    const body = { entity_type: 'deal', entity_id: 'D-dup', title: 'first', location: 'Here' };
    await upsert(body);
    await upsert({ ...body, version: 1, title: 'second' });
    const trail = () =>
      withClient(db.url, async (c) => ({
        outbox: (await c.query('SELECT count(*)::int AS n FROM calendar.outbox')).rows[0].n as number,
        journal: (await c.query('SELECT count(*)::int AS n FROM calendar.journal')).rows[0].n as number,
      }));
    const before = await trail();

    const again = await upsert({ ...body, title: 'again' });
    expect(again.status).toBe(409);
    expect(again.body.value).toMatchObject({
      reason: 'CALENDAR_VERSION_CONFLICT',
      current: { version: 2, title: 'second', location: 'Here' },
    });
    expect(again.body.value.diff).toEqual([{ field: 'title', sent: 'again', current: 'second' }]);

    const remove = (extra: Record<string, unknown>) =>
      request<Env<{ reason: string; removed: boolean; current: Ev; diff: unknown[] }>>(
        `${base}/Calendar/remove`,
        { headers: as(crm), body: { entity_type: 'deal', ...extra } },
      );
    const stale = await remove({ entity_id: 'D-dup', version: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.value).toMatchObject({
      reason: 'CALENDAR_VERSION_CONFLICT',
      current: { version: 2, title: 'second' },
      diff: [],
    });
    const absent = await remove({ entity_id: 'D-never', version: 3 });
    expect([absent.status, absent.body.value]).toEqual([
      200,
      { removed: false, version: null, cursor: null },
    ]);
    expect(await trail()).toEqual(before);

    const atVersion = await remove({ entity_id: 'D-dup', version: 2 });
    expect(atVersion.body.value).toMatchObject({ removed: true, version: 2 });
  });

  it('commits the row, its outbox event and its journal entry in one transaction, and wakes the relay at commit', async () => {
    const listener = new Client({ connectionString: db.url });
    await listener.connect();
    const notes: Notification[] = [];
    listener.on('notification', (n) => notes.push(n));
    await listener.query(`LISTEN ${OUTBOX_CHANNEL}`);
    try {
      const created = await upsert({
        entity_type: 'deal',
        entity_id: 'D-tx',
        title: 'one commit',
        start: { date_time: '2026-12-01T10:00:00Z' },
      });
      expect(created.status).toBe(201);
      const id = created.body.value.id;
      await eventually(async () => (notes.length ? true : undefined));
      expect(notes[0]).toMatchObject({ channel: OUTBOX_CHANNEL, payload: 'calendar' });

      const rows = await withClient(db.url, async (c) => ({
        event: (await c.query(`SELECT xmin::text AS tx, updated_at FROM calendar.events WHERE id = $1`, [id]))
          .rows[0],
        outbox: (
          await c.query(
            `SELECT xmin::text AS tx, aggregate_id, tenant_id, payload FROM calendar.outbox WHERE aggregate_id = $1`,
            [id],
          )
        ).rows,
        journal: (
          await c.query(`SELECT xmin::text AS tx, cursor FROM calendar.journal WHERE event_id = $1`, [id])
        ).rows,
      }));
      expect(rows.outbox).toHaveLength(1);
      expect(rows.journal).toHaveLength(1);
      // The same transaction id: one commit. (The journal row's xmin is that of its cursor, set at COMMIT
      // in the same transaction.)
      expect([rows.outbox[0].tx, rows.journal[0].tx]).toEqual([rows.event.tx, rows.event.tx]);
      expect(String(rows.journal[0].cursor)).toBe(created.headers.get('x-journal-cursor'));
      const payload = rows.outbox[0].payload as Record<string, unknown>;
      expect(violations(CalendarEventChanged, payload)).toEqual([]);
      expect(payload).toEqual({
        eventId: id,
        accountId: 'acme',
        productId: 'crm',
        entityType: 'deal',
        entityId: 'D-tx',
        version: 1,
        title: 'one commit',
        startsAt: '2026-12-01T10:00:00.000Z',
        endsAt: '2026-12-01T10:00:00.000Z',
        status: 'confirmed',
        changedAt: (rows.event.updated_at as Date).toISOString(),
      });
      expect(payload.changedAt).toBe(created.body.value.updated_at);
      expect(rows.outbox[0]).toMatchObject({ aggregate_id: id, tenant_id: 'acme' });

      const removed = await request<Env<{ removed: boolean; version: number; cursor: number }>>(
        `${base}/Calendar/remove`,
        { headers: as(crm), body: { entity_type: 'deal', entity_id: 'D-tx' } },
      );
      const gone = await withClient(db.url, async (c) => ({
        outbox: (
          await c.query(
            `SELECT xmin::text AS tx, payload FROM calendar.outbox WHERE aggregate_id = $1 AND topic = $2`,
            [id, CalendarEventRemoved.topic],
          )
        ).rows,
        journal: (
          await c.query(
            `SELECT xmin::text AS tx, cursor FROM calendar.journal WHERE event_id = $1 AND kind = 'removed'`,
            [id],
          )
        ).rows,
      }));
      expect(gone.outbox).toHaveLength(1);
      expect(gone.journal[0].tx).toBe(gone.outbox[0].tx);
      expect(Number(gone.journal[0].cursor)).toBe(removed.body.value.cursor);
      expect(violations(CalendarEventRemoved, gone.outbox[0].payload)).toEqual([]);
      expect(gone.outbox[0].payload).toMatchObject({ eventId: id, version: 1 });
    } finally {
      await listener.end();
    }
  });

  it('returns the cursor each commit assigns: gap-free and monotonic under concurrent writes, from the first write of an account', async () => {
    await ensureAccount(app, 'globex', 'Globex');
    await grantPermissions(app, 'globex', 'crm', ['Push', 'Read']);
    const headers = as(crm, 'crm', { AccountId: 'globex' });
    type Written = {
      eventId: string;
      kind: 'created' | 'updated' | 'removed';
      version: number;
      cursor: number;
    };
    const written: Written[] = [];
    const fromUpsert = async (body: Record<string, unknown>) => {
      const res = await upsert(body, headers);
      if (res.status < 300)
        written.push({
          eventId: res.body.value.id,
          kind: res.body.value.version === 1 ? 'created' : 'updated',
          version: res.body.value.version,
          cursor: Number(res.headers.get('x-journal-cursor')),
        });
      return res;
    };

    // The account's first writes race to create its counter row; one triple is created by 8 at once.
    const created = await Promise.all([
      ...Array.from({ length: 24 }, (_, i) => fromUpsert({ entity_type: 'deal', entity_id: `G-${i}` })),
      ...Array.from({ length: 8 }, () => fromUpsert({ entity_type: 'deal', entity_id: 'G-same' })),
    ]);
    expect(created.filter((r) => r.status === 201)).toHaveLength(25);
    expect(created.filter((r) => r.status === 409)).toHaveLength(7);

    // Updates, stale updates and removals, all at once.
    const ids = new Map(created.filter((r) => r.status === 201).map((r) => [r.body.value.id, r.body.value]));
    await Promise.all(
      Array.from({ length: 24 }, async (_, i) => {
        const entity = { entity_type: 'deal', entity_id: `G-${i}` };
        if (i % 3 === 2) {
          const res = await request<Env<{ removed: boolean; version: number; cursor: number }>>(
            `${base}/Calendar/remove`,
            { headers, body: entity },
          );
          const id = [...ids.values()].find((e) => e.entity_id === `G-${i}`)?.id ?? '';
          written.push({
            eventId: id,
            kind: 'removed',
            version: res.body.value.version,
            cursor: res.body.value.cursor,
          });
          return;
        }
        await Promise.all([fromUpsert({ ...entity, version: 1 }), fromUpsert({ ...entity, version: 1 })]);
      }),
    );

    const journal = await withClient(db.url, (c) =>
      c.query(
        `SELECT event_id, kind, version, cursor::int AS cursor FROM calendar.journal
          WHERE account_id = 'globex' ORDER BY cursor`,
      ),
    );
    const cursors = journal.rows.map((r) => r.cursor as number);
    expect(cursors).toEqual(Array.from({ length: cursors.length }, (_, i) => i + 1));
    expect(cursors).toHaveLength(25 + 16 + 8);
    const stored = journal.rows.map((r) => ({
      eventId: r.event_id,
      kind: r.kind,
      version: r.version,
      cursor: r.cursor,
    }));
    expect([...written].sort((a, b) => a.cursor - b.cursor)).toEqual(stored);
  });

  it('refuses a write to an account that does not exist (404, checked by the foreign key)', async () => {
    const attempt = app
      .get(EventsService)
      .upsert(
        asAccountId('no-such-account'),
        asProductId('crm'),
        { entity_type: 'deal', entity_id: 'X' },
        'r',
      );
    await expect(attempt).rejects.toMatchObject({ reason: 'CALENDAR_ACCOUNT_NOT_FOUND', status: 404 });
  });

  it('lists the events of one entity with the total', async () => {
    await upsert({ entity_type: 'loan', entity_id: 'L-9', title: 'disbursement' });
    await upsert({ entity_type: 'loan-payment', entity_id: 'L-9', title: 'first payment' });
    const all = await request<Env<{ items: Ev[]; total: number }>>(
      `${base}/Calendar/listByEntity?entity_id=L-9`,
      { headers: as(crm) },
    );
    expect(all.status).toBe(200);
    expect(all.body.value.total).toBe(2);
    const one = await request<Env<{ items: Ev[]; total: number }>>(
      `${base}/Calendar/listByEntity?entity_id=L-9&entity_type=loan`,
      { headers: as(crm) },
    );
    expect(one.body.value.items.map((e) => e.title)).toEqual(['disbursement']);
    const others = await request<Env<{ total: number }>>(`${base}/Calendar/listByEntity?entity_id=L-9`, {
      headers: as(erp, 'erp'),
    });
    expect(others.body.value.total).toBe(0);
  });

  it('rejects bad input with localised field errors, never a 500', async () => {
    const res = await upsert(
      {
        entity_type: 5,
        version: -1,
        colour: 'red',
        start: { date_time: '2026-12-01T10:00:00', time_zone: 'Mars/Olympus' },
      },
      as(crm, 'crm', { 'Language-Code': 'es' }),
    );
    expect(res.status).toBe(400);
    const value = res.body.value as unknown as {
      reason: string;
      fields: { field: string; rule: string; message: string }[];
    };
    expect(value.reason).toBe('VALIDATION_FAILED');
    expect(value.fields.map((f) => `${f.field}:${f.rule}`)).toEqual(
      expect.arrayContaining([
        'entity_type:isString',
        'entity_id:isString',
        'version:min',
        'colour:whitelistValidation',
        'start.date_time:isInstant',
        'start.time_zone:isTimeZone',
      ]),
    );
    expect(value.fields.find((f) => f.field === 'version')?.message).toBe('version debe ser al menos 0.');

    // The reference says IANA zone, as Google Calendar does: a bare offset names no zone.
    for (const offset of ['+05:00', '-0500'])
      for (const lang of ['en', 'ru']) {
        const zoneless = await upsert(
          {
            entity_type: 'x',
            entity_id: 'tz',
            start: { date_time: '2026-12-01T10:00:00+05:00', time_zone: offset },
            end: { date_time: '2026-12-01T11:00:00+05:00', time_zone: 'Asia/Almaty' },
          },
          as(crm, 'crm', { 'Language-Code': lang }),
        );
        expect(zoneless.status).toBe(400);
        const z = zoneless.body.value as unknown as {
          reason: string;
          fields: { field: string; rule: string; message: string }[];
        };
        expect([z.reason, z.fields]).toEqual([
          'VALIDATION_FAILED',
          [
            {
              field: 'start.time_zone',
              rule: 'isTimeZone',
              message:
                lang === 'en'
                  ? 'start.time_zone must be an IANA time zone.'
                  : 'Поле start.time_zone должно быть часовым поясом IANA.',
            },
          ],
        ]);
      }

    const impossible = await upsert(
      { entity_type: 'x', entity_id: 'y', start: { date: '2026-02-30' }, metadata: { n: 5 } },
      as(crm, 'crm', { 'Language-Code': 'en' }),
    );
    const imp = impossible.body.value as unknown as { fields: { field: string; rule: string }[] };
    expect(imp.fields.map((f) => `${f.field}:${f.rule}`).sort()).toEqual([
      'metadata:freeFormMap',
      'start.date:isCalendarDate',
    ]);

    const crossField = await upsert(
      {
        entity_type: 'x',
        entity_id: 'y',
        start: { date: '2026-03-01' },
        end: { date_time: '2026-03-01T00:00:00Z' },
      },
      as(crm, 'crm', { 'Language-Code': 'en' }),
    );
    expect(crossField.status).toBe(400);
    const cf = crossField.body.value as unknown as {
      fields: { field: string; rule: string; message: string }[];
    };
    expect(cf.fields.map((f) => `${f.field}:${f.rule}`).sort()).toEqual(['end:sameKindAsStart']);
    expect(cf.fields.find((f) => f.rule === 'sameKindAsStart')?.message).toBe(
      'end must be of the same kind as start (both timed or both all-day).',
    );

    const backwards = await upsert({
      entity_type: 'x',
      entity_id: 'z',
      start: { date_time: '2026-03-02T00:00:00Z' },
      end: { date_time: '2026-03-01T00:00:00Z' },
    });
    expect(
      (backwards.body.value as unknown as { fields: { rule: string }[] }).fields.map((f) => f.rule),
    ).toEqual(['notBeforeStart']);

    const malformed = await request<Env<{ reason: string }>>(`${base}/Calendar/upsert`, {
      headers: { ...as(crm), 'content-type': 'application/json' },
      body: '{"entity_type": ',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.value.reason).toBe('MALFORMED_BODY');
  });

  it('denies a missing, wrong, foreign or revoked key', async () => {
    const body = { entity_type: 'deal', entity_id: 'D-5' };
    const none = await request<Env<{ reason: string }>>(`${base}/Calendar/upsert`, {
      headers: { AccountId: 'acme', ProductId: 'crm' },
      body,
    });
    expect([none.status, none.body.value.reason]).toEqual([401, 'API_KEY_MISSING']);
    const wrong = await upsert(body, { ...as(crm), API_KEY: `${crm.token.slice(0, -3)}xyz` });
    expect([wrong.status, wrong.body.value.reason]).toEqual([401, 'API_KEY_INVALID']);
    const foreign = await upsert(body, as(crm, 'erp'));
    expect([foreign.status, foreign.body.value.reason]).toEqual([403, 'TENANT_MISMATCH']);
    const temp = await issueProductKey(app, 'crm', 'temp');
    await revokeProductKey(app, temp.keyId);
    const revoked = await upsert(body, as(temp));
    expect([revoked.status, revoked.body.value.reason]).toEqual([401, 'API_KEY_REVOKED']);
  });

  it('answers unknown routes with a 404 envelope and reports ready', async () => {
    const res = await request<Env<{ reason: string }>>(`${base}/Calendar/nope`, {
      headers: { 'Language-Code': 'tr' },
    });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, code: 404, value: { reason: 'ROUTE_NOT_FOUND' } });
    const ready = await request<Env<{ status: string }>>(`${base}/health/ready`);
    expect([ready.status, ready.body.value.status]).toEqual([200, 'up']);
  });
});
