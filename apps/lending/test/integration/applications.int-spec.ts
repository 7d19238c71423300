import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createTestDatabase, listen, request, serviceEnv } from '@platform/testing';
import { createLendingApp } from '../../src/bootstrap';
import { LoanApplication } from '../../src/applications/application.entity';
import { TenancyAdminService, asOrganizationId } from '@platform/tenancy';

type Env<T = unknown> = { success: boolean; code: number; error: string | null; value: T };

describe('lending partner keys and paged applications (real PostgreSQL)', () => {
  let app: INestApplication;
  let base: string;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let keyA: string;
  let keyB: string;
  let readOnlyLoans: string;

  beforeAll(async () => {
    db = await createTestDatabase('lending_apps');
    app = await createLendingApp(serviceEnv(db.url), false);
    base = await listen(app);
    const admin = app.get(TenancyAdminService);
    await admin.createOwner('bank-a', 'Bank A');
    await admin.createOwner('bank-b', 'Bank B');
    keyA = (await admin.issueKey('bank-a', 'a')).token;
    keyB = (await admin.issueKey('bank-b', 'b')).token;
    readOnlyLoans = (await admin.issueKey('bank-a', 'loans only', { scopes: ['loans:read'] })).token;
    const repo = app.get(DataSource).getRepository(LoanApplication);
    const [a, b] = [asOrganizationId('bank-a'), asOrganizationId('bank-b')];
    for (let i = 0; i < 25; i++) await repo.insert({ organizationId: a, status: 'draft' });
    await repo.insert({ organizationId: b, status: 'draft' });
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  const get = (query: string, key: string, org: string, lang = 'en') =>
    request<
      Env<{
        items: { id: string }[];
        total: number;
        reason?: string;
        fields?: { field: string; rule: string }[];
      }>
    >(`${base}/Applications/GetApplications${query}`, {
      headers: { 'X-Api-Key': key, 'Organization-Id': org, 'Language-Code': lang },
    });

  it('pages with Offset and Count and reports the total of the organization only', async () => {
    const first = await get('?Offset=0&Count=10', keyA, 'bank-a');
    expect(first.status).toBe(200);
    expect(first.body.value.total).toBe(25);
    expect(first.body.value.items).toHaveLength(10);
    const last = await get('?Offset=20&Count=10', keyA, 'bank-a');
    expect(last.body.value.items).toHaveLength(5);
    const ids = new Set([...first.body.value.items, ...last.body.value.items].map((i) => i.id));
    expect(ids.size).toBe(15);
    const other = await get('', keyB, 'bank-b');
    expect(other.body.value.total).toBe(1);
  });

  it('rejects out-of-range paging with localised field errors', async () => {
    const res = await get('?Offset=-1&Count=100000', keyA, 'bank-a', 'tr');
    expect(res.status).toBe(400);
    expect(res.body.value.reason).toBe('VALIDATION_FAILED');
    expect(res.body.value.fields?.map((f) => `${f.field}:${f.rule}`).sort()).toEqual([
      'Count:max',
      'Offset:min',
    ]);
    expect(res.body.error).toBe('İstekte geçersiz alanlar var.');
  });

  it('refuses a key without the route scope, naming the scope', async () => {
    const res = await get('', readOnlyLoans, 'bank-a', 'es');
    expect(res.status).toBe(403);
    expect(res.body.value).toMatchObject({ reason: 'SCOPE_MISSING', missingScopes: ['applications:read'] });
    expect(res.body.error).toBe('La clave de API no tiene los permisos: applications:read.');
  });

  it("refuses another organization's header, a missing header and a revoked key", async () => {
    expect((await get('', keyA, 'bank-b')).body.value.reason).toBe('TENANT_MISMATCH');
    const missing = await request<Env<{ reason: string }>>(`${base}/Applications/GetApplications`, {
      headers: { 'X-Api-Key': keyA },
    });
    expect([missing.status, missing.body.value.reason]).toEqual([400, 'TENANT_HEADER_MISSING']);
    const admin = app.get(TenancyAdminService);
    const temp = await admin.issueKey('bank-a', 'temp');
    expect((await get('', temp.token, 'bank-a')).status).toBe(200);
    expect(await admin.revokeKey(temp.keyId)).toBe(true);
    const revoked = await get('', temp.token, 'bank-a');
    expect([revoked.status, revoked.body.value.reason]).toEqual([401, 'API_KEY_REVOKED']);
  });
});
