import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createTestDatabase, listen, request, serviceEnv } from '@platform/testing';
import { TenancyAdminService } from '@platform/tenancy';
import { createVerificationApp } from '../../src/bootstrap';

type Env<T = unknown> = { success: boolean; code: number; error: string | null; value: T };
type Session = {
  id: string;
  caseId: string;
  kind: string;
  provider: string;
  status: string;
  result: string | null;
  breakdown: Record<string, { result: string; reason: string }>;
  reason?: string;
  sessionId?: string;
  retryable?: boolean;
};
type Step = {
  step: string;
  outcome: string;
  rule: string;
  evidence: Record<string, unknown>;
  detail: string | null;
  documentId: string | null;
  providerSessionId: string | null;
  createdAt: string;
};
type List<T> = { items: T[]; total: number; reason?: string };

describe('checks: orchestrator steps and provider sessions (real PostgreSQL)', () => {
  let app: INestApplication;
  let base: string;
  let ds: DataSource;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let keyA: string;
  let keyB: string;
  let casesOnly: string;

  beforeAll(async () => {
    db = await createTestDatabase('verification_checks');
    app = await createVerificationApp(serviceEnv(db.url, { ORCHESTRATOR_INTERVAL_MS: '0' }), false);
    base = await listen(app);
    ds = app.get(DataSource);
    const admin = app.get(TenancyAdminService);
    await admin.createOwner('org-a', 'A');
    await admin.createOwner('org-b', 'B');
    keyA = (await admin.issueKey('org-a', 'a')).token;
    keyB = (await admin.issueKey('org-b', 'b')).token;
    casesOnly = (await admin.issueKey('org-a', 'ro', { scopes: ['cases:read', 'provider-checks:read'] }))
      .token;
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  const auth = (key = keyA, org = 'org-a') => ({ 'X-API-Key': key, 'Service-Organization-Id': org });
  const createCase = async (
    fields: { applicantName?: string; applicantBirthDate?: string; applicantType?: string } = {},
    key = keyA,
    org = 'org-a',
  ): Promise<string> => {
    const res = await request<Env<{ id: string }>>(`${base}/api/v1/verification-cases`, {
      method: 'POST',
      headers: { ...auth(key, org), 'Idempotency-Key': randomUUID() },
      body: {
        externalReferenceId: `APP-${randomUUID()}`,
        applicantType: fields.applicantType ?? 'Individual',
        applicantCountryCode: 'KZ',
        reportCountryCode: 'KZ',
        ...(fields.applicantName ? { applicantName: fields.applicantName } : {}),
        ...(fields.applicantBirthDate ? { applicantBirthDate: fields.applicantBirthDate } : {}),
      },
    });
    expect(res.status).toBe(201);
    return res.body.value.id;
  };
  const startSession = (caseId: string, body: unknown = {}, key = keyA, org = 'org-a') =>
    request<Env<Session>>(`${base}/api/v1/verification-cases/${caseId}/provider-checks/start-session`, {
      method: 'POST',
      headers: auth(key, org),
      body,
    });
  const sessions = (caseId: string, key = keyA, org = 'org-a') =>
    request<Env<List<Session>>>(`${base}/api/v1/verification-cases/${caseId}/provider-checks`, {
      headers: auth(key, org),
    });
  const checks = (caseId: string, key = keyA, org = 'org-a') =>
    request<Env<List<Step>>>(`${base}/api/v1/verification-cases/${caseId}/checks`, {
      headers: auth(key, org),
    });

  describe('provider sessions (sandbox)', () => {
    it.each([
      ['Sandbox Clear Aigerim', 'clear', 'passed'],
      ['Anyone Else', 'clear', 'passed'],
      ['Mr sandbox consider', 'consider', 'warning'],
      ['Sandbox Reject Corp', 'rejected', 'failed'],
    ])('answers %s with %s at once and stores the provider-kyc step (%s)', async (name, result, outcome) => {
      const caseId = await createCase({ applicantName: name });
      const res = await startSession(caseId);
      expect(res.status).toBe(201);
      expect(res.body.value).toMatchObject({
        id: expect.any(String),
        caseId,
        kind: 'KYC',
        provider: 'sandbox',
        status: 'Completed',
        result,
      });
      expect(Object.keys(res.body.value.breakdown).sort()).toEqual([
        'document',
        'facial_similarity',
        'watchlist',
      ]);
      const steps = (await checks(caseId)).body.value.items;
      expect(steps).toEqual([
        expect.objectContaining({
          step: 'provider-kyc',
          outcome,
          rule: `provider-kyc.${result}`,
          providerSessionId: res.body.value.id,
          documentId: null,
        }),
      ]);
      const listed = await sessions(caseId, casesOnly);
      expect(listed.body.value.items.map((s) => [s.id, s.status, s.result])).toEqual([
        [res.body.value.id, 'Completed', result],
      ]);
    });

    it('runs KYB for a Business applicant by default, and the kind the body asks for otherwise', async () => {
      const biz = await createCase({ applicantType: 'Business', applicantName: 'Sandbox Consider LLP' });
      const kyb = await startSession(biz);
      expect(kyb.body.value).toMatchObject({ kind: 'KYB', result: 'consider', status: 'Completed' });
      expect(kyb.body.value.breakdown.beneficial_owners).toEqual({
        result: 'consider',
        reason: 'SANDBOX_OWNERSHIP_UNCLEAR',
      });
      expect((await checks(biz)).body.value.items[0]).toMatchObject({
        step: 'provider-kyb',
        outcome: 'warning',
      });
      const kyc = await startSession(biz, { kind: 'KYC' });
      expect(kyc.body.value.kind).toBe('KYC');
      expect((await startSession(biz, { kind: 'AML' })).status).toBe(400);
    });

    it('answers Sandbox Error as a retryable provider failure, stored as a Failed session and an error step', async () => {
      const caseId = await createCase({ applicantName: 'Sandbox Error' });
      const res = await startSession(caseId, undefined);
      expect(res.status).toBe(502);
      expect(res.body).toMatchObject({
        success: false,
        value: { reason: 'IDENTITY_PROVIDER_UNAVAILABLE', sessionId: expect.any(String), retryable: true },
      });
      const listed = (await sessions(caseId)).body.value.items;
      expect(listed).toEqual([
        expect.objectContaining({ id: res.body.value.sessionId, status: 'Failed', result: null }),
      ]);
      expect((await checks(caseId)).body.value.items).toEqual([
        expect.objectContaining({
          step: 'provider-kyc',
          outcome: 'error',
          rule: 'provider-kyc.provider-error',
        }),
      ]);
    });

    it('refuses a final case with 409, and needs provider-checks:write', async () => {
      const caseId = await createCase();
      expect((await startSession(caseId, {}, casesOnly)).status).toBe(403);
      const cancel = await request(`${base}/api/v1/verification-cases/${caseId}/cancel`, {
        method: 'POST',
        headers: auth(),
      });
      expect(cancel.status).toBe(200);
      const res = await startSession(caseId);
      expect(res.status).toBe(409);
      expect(res.body.value.reason).toBe('PROVIDER_CHECK_CASE_FINAL');
      expect((await sessions(caseId)).body.value.total).toBe(0);
    });

    it("answers 404 for another organization's case, exactly like an unknown one", async () => {
      const caseId = await createCase({ applicantName: 'Sandbox Clear' });
      for (const res of [
        await startSession(caseId, {}, keyB, 'org-b'),
        await sessions(caseId, keyB, 'org-b'),
        await checks(caseId, keyB, 'org-b'),
      ]) {
        expect(res.status).toBe(404);
        expect((res.body.value as { reason: string }).reason).toBe('CASE_NOT_FOUND');
      }
      expect((await checks(randomUUID())).status).toBe(404);
      expect((await checks('not-a-uuid')).status).toBe(404);
      expect((await sessions(caseId)).body.value.total).toBe(0);
      const rows = await ds.query(
        'SELECT count(*)::int AS n FROM verification.provider_sessions WHERE case_id = $1',
        [caseId],
      );
      expect(rows[0].n).toBe(0);
    });
  });
});
