import type { INestApplication } from '@nestjs/common';
import { createTestDatabase, listen, request, serviceEnv, withClient } from '@platform/testing';
import { createCalendarApp } from '../../src/bootstrap';
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
      start: { date_time: '2026-12-01T05:00:00.000Z', time_zone: 'Asia/Almaty' },
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
      { kind: 'upsert', version: 1 },
      { kind: 'upsert', version: 2 },
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
    expect(trail.journal).toEqual(['upsert', 'remove']);
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
