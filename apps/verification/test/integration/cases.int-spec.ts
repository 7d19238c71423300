import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createTestDatabase, listen, request, serviceEnv } from '@platform/testing';
import { createVerificationApp } from '../../src/bootstrap';
import { VerificationCase } from '../../src/cases/verification-case.entity';
import { TenancyAdminService, asOrganizationId } from '@platform/tenancy';

type Env<T = unknown> = { success: boolean; code: number; error: string | null; value: T };

describe('verification API keys and case lookup (real PostgreSQL)', () => {
  let app: INestApplication;
  let base: string;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let keyA: string;
  let keyB: string;
  let docsOnly: string;

  beforeAll(async () => {
    db = await createTestDatabase('verification_cases');
    app = await createVerificationApp(serviceEnv(db.url), false);
    base = await listen(app);
    const ds = app.get(DataSource);
    const admin = app.get(TenancyAdminService);
    await admin.createOwner('org-a', 'A');
    await admin.createOwner('org-b', 'B');
    keyA = (await admin.issueKey('org-a', 'a')).token;
    keyB = (await admin.issueKey('org-b', 'b')).token;
    docsOnly = (await admin.issueKey('org-a', 'docs', { scopes: ['documents:read'] })).token;
    const c = {
      status: 'AwaitingApplicant',
      applicantType: 'Individual',
      applicantCountryCode: 'KZ',
      reportCountryCode: 'KZ',
    };
    await ds.getRepository(VerificationCase).insert([
      { ...c, organizationId: asOrganizationId('org-a'), externalReferenceId: 'APP-1' },
      { ...c, organizationId: asOrganizationId('org-a'), externalReferenceId: 'APP-2' },
      { ...c, organizationId: asOrganizationId('org-b'), externalReferenceId: 'APP-1' },
    ]);
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  const find = (ref: string, key: string, org: string, headers: Record<string, string> = {}) =>
    request<Env<{ items: { externalReferenceId: string }[]; total: number; reason?: string }>>(
      `${base}/api/v1/verification-cases?externalReferenceId=${ref}`,
      { headers: { 'X-API-Key': key, 'Service-Organization-Id': org, ...headers } },
    );

  it("finds a case by the caller's own reference, within its organization only", async () => {
    const a = await find('APP-1', keyA, 'org-a');
    expect(a.status).toBe(200);
    expect(a.body.value.total).toBe(1);
    expect(a.body.value.items[0].externalReferenceId).toBe('APP-1');
    expect((await find('APP-2', keyB, 'org-b')).body.value.total).toBe(0);
  });

  it('localises errors by Accept-Language, as the spec asks', async () => {
    const res = await find('APP-1', docsOnly, 'org-a', { 'Accept-Language': 'kk-KZ,ru;q=0.8' });
    expect(res.status).toBe(403);
    expect(res.body.value.reason).toBe('SCOPE_MISSING');
    expect(res.body.error).toBe('API кілтінде мына рұқсаттар жоқ: cases:read.');
  });

  it('creates a case only with assigned ISO 3166-1 country codes: XX is refused, localised, and nothing is stored', async () => {
    const create = (applicantCountryCode: string, reportCountryCode: string, ref: string) =>
      request<Env<{ reason?: string; fields?: { field: string; rule: string; message: string }[] }>>(
        `${base}/api/v1/verification-cases`,
        {
          headers: {
            'X-API-Key': keyA,
            'Service-Organization-Id': 'org-a',
            'Accept-Language': 'ru',
            // The key is checked before the body (as on every idempotent route of the platform).
            'Idempotency-Key': `iso-${applicantCountryCode}-${reportCountryCode}`,
          },
          body: {
            externalReferenceId: ref,
            applicantType: 'Individual',
            applicantCountryCode,
            reportCountryCode,
          },
        },
      );
    for (const [applicant, report, field] of [
      ['XX', 'KZ', 'applicantCountryCode'],
      ['KZ', 'ZZ', 'reportCountryCode'],
    ]) {
      const res = await create(applicant, report, 'APP-ISO');
      expect([res.status, res.body.value.reason]).toEqual([400, 'VALIDATION_FAILED']);
      expect(res.body.value.fields).toEqual([
        {
          field,
          rule: 'isISO31661Alpha2',
          message: `Поле ${field} должно быть присвоенным кодом страны ISO 3166-1 alpha-2 (например, KZ).`,
        },
      ]);
    }
    expect((await find('APP-ISO', keyA, 'org-a')).body.value.total).toBe(0);
    expect((await create('UZ', 'TR', 'APP-ISO')).status).toBe(201);
  });

  it('refuses a key used for another organization', async () => {
    const res = await find('APP-1', keyA, 'org-b');
    expect([res.status, res.body.value.reason]).toEqual([403, 'TENANT_MISMATCH']);
  });
});
