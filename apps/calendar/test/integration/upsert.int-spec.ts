import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createTestDatabase, listen, request, serviceEnv, withClient } from '@platform/testing';
import { createCalendarApp } from '../../src/bootstrap';
import {
  ensureAccount,
  ensureProduct,
  issueProductKey,
  revokeProductKey,
} from '../../src/tenancy/tenancy.admin';

describe('calendar upsert (real PostgreSQL)', () => {
  let app: INestApplication;
  let base: string;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let key: { token: string; keyId: string };
  const headers = () => ({ API_KEY: key.token, AccountId: 'acme', ProductId: 'crm' });

  beforeAll(async () => {
    db = await createTestDatabase('calendar_upsert');
    app = await createCalendarApp(serviceEnv(db.url), false);
    base = await listen(app);
    const ds = app.get(DataSource);
    await ensureAccount(ds, 'acme', 'Acme');
    await ensureProduct(ds, 'crm', 'CRM');
    await ensureProduct(ds, 'erp', 'ERP');
    key = await issueProductKey(ds, 'crm', 'test');
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('creates with 201, updates the same record with 200, and writes one outbox event per write', async () => {
    const body = {
      entity_type: 'deal',
      entity_id: 'D-1',
      title: 'Kick-off',
      starts_at: '2026-12-01T10:00:00Z',
    };
    const created = await request<{ success: boolean; code: number; value: { id: string; version: number } }>(
      `${base}/Calendar/upsert`,
      { headers: headers(), body },
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ success: true, code: 201, error: null, value: { version: 1 } });
    expect(created.headers.get('x-request-id')).toBeTruthy();

    const updated = await request<{ value: { id: string; version: number; title: string } }>(
      `${base}/Calendar/upsert`,
      {
        headers: headers(),
        body: { ...body, version: 1, title: 'Kick-off (moved)' },
      },
    );
    expect(updated.status).toBe(200);
    expect(updated.body.value).toMatchObject({
      id: created.body.value.id,
      version: 2,
      title: 'Kick-off (moved)',
    });

    const rows = await withClient(db.url, async (c) => {
      const events = await c.query('SELECT count(*)::int AS n FROM calendar.events');
      const outbox = await c.query(
        `SELECT topic, aggregate_id, tenant_id, request_id, payload FROM calendar.outbox ORDER BY seq`,
      );
      return { events: events.rows[0].n as number, outbox: outbox.rows };
    });
    expect(rows.events).toBe(1);
    expect(rows.outbox).toHaveLength(2);
    expect(rows.outbox.map((r) => r.topic)).toEqual([
      'calendar.event.changed.v1',
      'calendar.event.changed.v1',
    ]);
    expect(rows.outbox[1]).toMatchObject({
      aggregate_id: created.body.value.id,
      tenant_id: 'acme',
      payload: { version: 2, title: 'Kick-off (moved)', entityId: 'D-1' },
    });
    expect(rows.outbox[1].request_id).toBe(updated.headers.get('x-request-id'));
  });

  it('answers a stale version with 409, the current event, and writes nothing', async () => {
    const body = { entity_type: 'deal', entity_id: 'D-2', title: 'A' };
    await request(`${base}/Calendar/upsert`, { headers: headers(), body });
    await request(`${base}/Calendar/upsert`, {
      headers: headers(),
      body: { ...body, version: 1, title: 'B' },
    });
    const before = await withClient(db.url, (c) => c.query('SELECT count(*)::int AS n FROM calendar.outbox'));
    const stale = await request<{
      success: boolean;
      code: number;
      error: string;
      value: Record<string, unknown>;
    }>(`${base}/Calendar/upsert`, {
      headers: { ...headers(), 'Language-Code': 'ru' },
      body: { ...body, version: 1, title: 'C' },
    });
    expect(stale.status).toBe(409);
    expect(stale.body.success).toBe(false);
    expect(stale.body.code).toBe(409);
    expect(stale.body.error).toContain('версию 1');
    expect(stale.body.value).toMatchObject({
      reason: 'CALENDAR_VERSION_CONFLICT',
      current: { version: 2, title: 'B' },
    });
    const after = await withClient(db.url, (c) => c.query('SELECT count(*)::int AS n FROM calendar.outbox'));
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it('rejects bad input with localised field errors, never a 500', async () => {
    const res = await request<{
      code: number;
      error: string;
      value: { reason: string; fields: { field: string; rule: string; message: string }[] };
    }>(`${base}/Calendar/upsert`, {
      headers: { ...headers(), 'Language-Code': 'es' },
      body: { entity_type: 5, version: -1, colour: 'red' },
    });
    expect(res.status).toBe(400);
    expect(res.body.value.reason).toBe('VALIDATION_FAILED');
    const fields = res.body.value.fields.map((f) => `${f.field}:${f.rule}`);
    expect(fields).toEqual(
      expect.arrayContaining([
        'entity_type:isString',
        'entity_id:isString',
        'version:min',
        'colour:whitelistValidation',
      ]),
    );
    expect(res.body.value.fields.find((f) => f.field === 'version')?.message).toBe(
      'version debe ser al menos 0.',
    );

    const malformed = await request<{ value: { reason: string } }>(`${base}/Calendar/upsert`, {
      headers: { ...headers(), 'content-type': 'application/json' },
      body: '{"entity_type": ',
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.value.reason).toBe('MALFORMED_BODY');
  });

  it('denies a missing, wrong, foreign or revoked key', async () => {
    const body = { entity_type: 'deal', entity_id: 'D-3' };
    const none = await request<{ value: { reason: string } }>(`${base}/Calendar/upsert`, {
      headers: { AccountId: 'acme', ProductId: 'crm' },
      body,
    });
    expect([none.status, none.body.value.reason]).toEqual([401, 'API_KEY_MISSING']);
    const wrong = await request<{ value: { reason: string } }>(`${base}/Calendar/upsert`, {
      headers: { ...headers(), API_KEY: `${key.token.slice(0, -3)}xyz` },
      body,
    });
    expect([wrong.status, wrong.body.value.reason]).toEqual([401, 'API_KEY_INVALID']);
    const foreign = await request<{ value: { reason: string } }>(`${base}/Calendar/upsert`, {
      headers: { ...headers(), ProductId: 'erp' },
      body,
    });
    expect([foreign.status, foreign.body.value.reason]).toEqual([403, 'TENANT_MISMATCH']);
    const ds = app.get(DataSource);
    const temp = await issueProductKey(ds, 'crm', 'temp');
    await revokeProductKey(ds, temp.keyId);
    const revoked = await request<{ value: { reason: string } }>(`${base}/Calendar/upsert`, {
      headers: { ...headers(), API_KEY: temp.token },
      body,
    });
    expect([revoked.status, revoked.body.value.reason]).toEqual([401, 'API_KEY_REVOKED']);
  });

  it('answers unknown routes with a 404 envelope', async () => {
    const res = await request<{ success: boolean; value: { reason: string } }>(`${base}/Calendar/nope`, {
      headers: { 'Language-Code': 'tr' },
    });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, code: 404, value: { reason: 'ROUTE_NOT_FOUND' } });
  });

  it('reports ready when the database and broker answer', async () => {
    const res = await request<{ value: { status: string; checks: Record<string, { status: string }> } }>(
      `${base}/health/ready`,
    );
    expect(res.status).toBe(200);
    expect(res.body.value.status).toBe('up');
    expect(res.body.value.checks.database.status).toBe('up');
    expect(res.body.value.checks.broker.status).toBe('up');
  });
});
