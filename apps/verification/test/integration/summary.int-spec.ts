import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Transactions } from '@platform/persistence';
import { createTestDatabase, listen, request, serviceEnv } from '@platform/testing';
import { TenancyAdminService, type OrganizationId } from '@platform/tenancy';
import { createVerificationApp } from '../../src/bootstrap';
import type { StepResult } from '../../src/checks/check-steps';
import { CheckStepsRepository } from '../../src/checks/check-steps.repository';
import { SummariesRepository } from '../../src/summary/summaries.repository';

type Env<T = unknown> = { success: boolean; code: number; error: string | null; value: T };
type Flag = {
  code: string;
  severity: string;
  rule: string;
  evidence: Record<string, unknown>;
  stepId: string | null;
};
type Summary = {
  id: string;
  caseId: string;
  version: number;
  recommendation: string;
  flags: Flag[];
  identityMatch: { status: string };
  authenticity: { status: string };
  rulesVersion: string;
  caseStatus?: string;
  reviewTaskId?: string | null;
  reason?: string;
  items?: Summary[];
  total?: number;
};

/** Step results of one document whose every check passed. */
const passedDocument = (): StepResult[] => [
  {
    step: 'file-type',
    outcome: 'passed',
    rule: 'file-type.magic-bytes',
    evidence: { detectedType: 'application/pdf' },
    detail: null,
  },
  {
    step: 'document-parse',
    outcome: 'passed',
    rule: 'document-parse.pdf-text-mrz',
    evidence: { source: 'pdf-text' },
    detail: null,
  },
  {
    step: 'mrz-check-digits',
    outcome: 'passed',
    rule: 'ICAO9303.check-digits',
    evidence: { format: 'TD3' },
    detail: null,
  },
  {
    step: 'document-expiry',
    outcome: 'passed',
    rule: 'document-expiry.not-expired',
    evidence: { expiryDate: '2031-01-01' },
    detail: null,
  },
  {
    step: 'name-match',
    outcome: 'passed',
    rule: 'name-match.exact',
    evidence: { document: 'NURLANOVA AIGERIM' },
    detail: null,
  },
  {
    step: 'birth-date-match',
    outcome: 'passed',
    rule: 'birth-date-match.equal',
    evidence: { document: '1990-04-17' },
    detail: null,
  },
  {
    step: 'duplicate-document',
    outcome: 'passed',
    rule: 'duplicate-document.none',
    evidence: { sameFile: [] },
    detail: null,
  },
];

const withStep = (results: StepResult[], s: StepResult) => results.map((r) => (r.step === s.step ? s : r));

/**
 * The summary (docs/verification/summary.md) over real HTTP and PostgreSQL: the check steps are stored
 * through the orchestrator's repository, then generation runs the rules, stores a version, emits
 * summary.generated and moves the case.
 */
describe('verification summary: generate, versions, case moves (real PostgreSQL)', () => {
  let app: INestApplication;
  let base: string;
  let ds: DataSource;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let keyA: string;
  let keyB: string;
  let readOnly: string;
  let n = 0;

  beforeAll(async () => {
    db = await createTestDatabase('verification_summary');
    app = await createVerificationApp(
      {
        ...serviceEnv(db.url),
        APPLICANT_PORTAL_URL: 'https://verify.example.com',
        DOCUMENT_EXPIRY_SWEEP_INTERVAL_MS: '0',
        ORCHESTRATOR_INTERVAL_MS: '0',
      },
      false,
    );
    base = await listen(app);
    ds = app.get(DataSource);
    const admin = app.get(TenancyAdminService);
    await admin.createOwner('org-a', 'A');
    await admin.createOwner('org-b', 'B');
    keyA = (await admin.issueKey('org-a', 'a')).token;
    keyB = (await admin.issueKey('org-b', 'b')).token;
    readOnly = (await admin.issueKey('org-a', 'ro', { scopes: ['cases:read'] })).token;
    // A webhook endpoint of org-a (every event): each event becomes a delivery row.
    await ds.query(
      `INSERT INTO verification.webhook_subscriptions (id, tenant_id, url, event_types, secret_ciphertext)
       VALUES (gen_random_uuid(), 'org-a', 'https://hooks.example.com/a', '{}', 'unused')`,
    );
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  const auth = (key = keyA, org = 'org-a') => ({ 'X-API-Key': key, 'Service-Organization-Id': org });
  const call = (method: string, path: string, key = keyA, org = 'org-a') =>
    request<Env<Summary>>(`${base}/api/v1/verification-cases/${path}`, { method, headers: auth(key, org) });
  const generate = (caseId: string, key = keyA, org = 'org-a') =>
    call('POST', `${caseId}/summary/generate`, key, org);

  /** A case with its documents received (the upload itself is the documents area's test). */
  const newCase = async (org = 'org-a', key = keyA, status = 'DocumentsReceived') => {
    const res = await request<Env<{ id: string }>>(`${base}/api/v1/verification-cases`, {
      method: 'POST',
      headers: { ...auth(key, org), 'Idempotency-Key': `summary-${++n}` },
      body: {
        externalReferenceId: `SUM-${n}`,
        applicantType: 'Individual',
        applicantCountryCode: 'KZ',
        reportCountryCode: 'KZ',
        applicantName: 'Aigerim Nurlanova',
        applicantBirthDate: '1990-04-17',
      },
    });
    expect(res.status).toBe(201);
    const id = res.body.value.id;
    if (status !== 'AwaitingApplicant')
      await ds.query(`UPDATE verification.verification_cases SET status = $2 WHERE id = $1`, [id, status]);
    return id;
  };
  const record = (caseId: string, results: StepResult[], org = 'org-a', documentId = randomUUID()) =>
    app
      .get(Transactions)
      .run((tx) =>
        app
          .get(CheckStepsRepository)
          .recordForDocument(org as OrganizationId, caseId, documentId, results, tx),
      );
  const recordKyc = async (caseId: string, outcome: 'passed' | 'warning' | 'failed') => {
    const [{ id }] = await ds.query(
      `INSERT INTO verification.provider_sessions (organization_id, case_id, kind, provider, status, breakdown)
       VALUES ('org-a', $1, 'KYC', 'sandbox', 'Completed', '{}') RETURNING id`,
      [caseId],
    );
    const result = { passed: 'clear', warning: 'consider', failed: 'rejected' }[outcome];
    await app.get(Transactions).run((tx) =>
      app.get(CheckStepsRepository).recordForSession(
        'org-a' as OrganizationId,
        caseId,
        id,
        {
          step: 'provider-kyc',
          outcome,
          rule: `provider-kyc.${result}`,
          evidence: { sessionId: id, result },
          detail: null,
        },
        tx,
      ),
    );
  };
  const caseStatus = async (id: string) =>
    (await ds.query(`SELECT status FROM verification.verification_cases WHERE id = $1`, [id]))[0].status;
  const deliveries = async (caseId: string): Promise<({ type: string } & Record<string, unknown>)[]> =>
    (
      await ds.query(
        `SELECT d.event_type, d.payload FROM verification.webhook_deliveries d
          JOIN verification.outbox o ON o.id::text = d.event_id
          WHERE d.tenant_id = 'org-a' AND d.payload->>'caseId' = $1 ORDER BY o.seq`,
        [caseId],
      )
    ).map((r: { event_type: string; payload: Record<string, unknown> }) => ({
      type: r.event_type,
      ...r.payload,
    }));
  const tasksOf = (caseId: string) =>
    ds.query(
      `SELECT id, status, origin, flags, summary_id FROM verification.review_tasks WHERE case_id = $1`,
      [caseId],
    );

  it('every step passed -> approve; the case goes DocumentsReceived -> Checking -> Approved, with the events', async () => {
    const id = await newCase();
    await record(id, passedDocument());
    await recordKyc(id, 'passed');
    const res = await generate(id);
    expect(res.status).toBe(200);
    expect(res.body.value).toMatchObject({
      caseId: id,
      version: 1,
      recommendation: 'approve',
      flags: [],
      identityMatch: { status: 'match' },
      authenticity: { status: 'passed' },
      rulesVersion: 'summary-rules/1',
      caseStatus: 'Approved',
      reviewTaskId: null,
    });
    expect(await caseStatus(id)).toBe('Approved');
    const history = await call('GET', `${id}/history`);
    expect(
      (history.body.value as unknown as { items: { toStatus: string }[] }).items.map((h) => h.toStatus),
    ).toEqual(['AwaitingApplicant', 'Checking', 'Approved']);
    const events = await deliveries(id);
    expect(events.filter((e) => e.type === 'summary.generated')).toEqual([
      expect.objectContaining({ caseId: id, summaryId: res.body.value.id, recommendation: 'approve' }),
    ]);
    expect(
      events.filter((e) => e.type === 'case.status_changed').map((e) => [e.fromStatus, e.toStatus]),
    ).toEqual([
      [null, 'AwaitingApplicant'],
      ['DocumentsReceived', 'Checking'],
      ['Checking', 'Approved'],
    ]);
    // The report area reads the same row.
    const stored = await app.get(SummariesRepository).latest('org-a' as OrganizationId, id);
    expect(stored).toMatchObject({ id: res.body.value.id, version: 1, recommendation: 'approve' });
    expect(await app.get(SummariesRepository).get('org-b' as OrganizationId, res.body.value.id)).toBeNull();
  });

  it('a failed MRZ check digit -> decline citing the ICAO rule and the step; the case is Declined', async () => {
    const id = await newCase();
    await record(
      id,
      withStep(passedDocument(), {
        step: 'mrz-check-digits',
        outcome: 'failed',
        rule: 'ICAO9303.check-digit.document-number',
        evidence: { line: 2, position: 10, expected: '7', found: '3' },
        detail: 'ICAO9303.check-digit.document-number (line 2, position 10: expected 7, found 3)',
      }),
    );
    const res = await generate(id);
    expect(res.status).toBe(200);
    expect(res.body.value.recommendation).toBe('decline');
    expect(res.body.value.caseStatus).toBe('Declined');
    expect(res.body.value.authenticity.status).toBe('failed');
    const [stepRow] = await ds.query(
      `SELECT id FROM verification.check_steps WHERE case_id = $1 AND step = 'mrz-check-digits'`,
      [id],
    );
    expect(res.body.value.flags[0]).toEqual({
      code: 'MRZ_CHECK_DIGIT_FAILED',
      severity: 'critical',
      rule: 'ICAO9303.check-digit.document-number',
      evidence: { line: 2, position: 10, expected: '7', found: '3' },
      stepId: stepRow.id,
    });
    expect(await caseStatus(id)).toBe('Declined');
    expect(await tasksOf(id)).toEqual([]);
  });

  it('a duplicate document -> review: the case goes to ManualReview and one task is opened by rule, citing the flag', async () => {
    const id = await newCase();
    await record(
      id,
      withStep(passedDocument(), {
        step: 'duplicate-document',
        outcome: 'warning',
        rule: 'duplicate-document.same-file',
        evidence: { sameFile: [{ caseId: randomUUID(), documentId: randomUUID() }] },
        detail: 'The same file was uploaded to another case.',
      }),
    );
    await recordKyc(id, 'passed');
    const res = await generate(id);
    expect(res.status).toBe(200);
    expect(res.body.value).toMatchObject({ recommendation: 'review', caseStatus: 'ManualReview' });
    expect(res.body.value.flags.map((f) => [f.code, f.severity, f.rule])).toEqual([
      ['DUPLICATE_DOCUMENT', 'warning', 'duplicate-document.same-file'],
    ]);
    const tasks = await tasksOf(id);
    expect(tasks).toHaveLength(1);
    expect(tasks[0]).toMatchObject({
      id: res.body.value.reviewTaskId,
      status: 'Open',
      origin: 'rule',
      summary_id: res.body.value.id,
      flags: res.body.value.flags,
    });
    const events = await deliveries(id);
    expect(events.filter((e) => e.type === 'manual_review.status_changed')).toEqual([
      expect.objectContaining({ taskId: tasks[0].id, fromStatus: null, toStatus: 'Open', assignee: null }),
    ]);

    // Generated again while the task is open: version 2, the case stays with the reviewer, no second task.
    const again = await generate(id);
    expect(again.status).toBe(200);
    expect(again.body.value).toMatchObject({
      version: 2,
      caseStatus: 'ManualReview',
      reviewTaskId: tasks[0].id,
    });
    expect(await tasksOf(id)).toHaveLength(1);
  });

  it('generating twice keeps both versions; GET answers the latest, /versions all of them newest first', async () => {
    const id = await newCase();
    await record(
      id,
      withStep(passedDocument(), {
        step: 'document-parse',
        outcome: 'skipped',
        rule: 'document-parse.image-no-ocr',
        evidence: {},
        detail: 'Images are not read.',
      }),
    );
    const first = await generate(id);
    expect(first.body.value).toMatchObject({
      version: 1,
      recommendation: 'review',
      caseStatus: 'ManualReview',
    });
    const second = await generate(id);
    expect(second.body.value.version).toBe(2);
    expect(second.body.value.id).not.toBe(first.body.value.id);
    const latest = await call('GET', `${id}/summary`, readOnly);
    expect(latest.status).toBe(200);
    expect(latest.body.value).toMatchObject({ id: second.body.value.id, version: 2 });
    expect(latest.body.value).not.toHaveProperty('caseStatus');
    const versions = await call('GET', `${id}/summary/versions`, readOnly);
    expect(versions.status).toBe(200);
    expect(versions.body.value.total).toBe(2);
    expect(versions.body.value.items?.map((s) => s.version)).toEqual([2, 1]);
    const rows = await ds.query(
      `SELECT version FROM verification.case_summaries WHERE case_id = $1 ORDER BY version`,
      [id],
    );
    expect(rows).toEqual([{ version: 1 }, { version: 2 }]);
  });

  it('no usable document -> review with NO_USABLE_DOCUMENT', async () => {
    const id = await newCase();
    const res = await generate(id);
    expect(res.status).toBe(200);
    expect(res.body.value.recommendation).toBe('review');
    expect(res.body.value.flags).toContainEqual({
      code: 'NO_USABLE_DOCUMENT',
      severity: 'warning',
      rule: 'summary.no-usable-document',
      evidence: { checkedDocuments: [], fileTypePassed: 0 },
      stepId: null,
    });
  });

  it('a final case answers 409 SUMMARY_CASE_FINAL (its summary is read with GET); a case awaiting the applicant 409 too', async () => {
    const id = await newCase();
    await record(id, passedDocument());
    expect((await generate(id)).body.value.caseStatus).toBe('Approved');
    const again = await generate(id);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ success: false, code: 409, value: { reason: 'SUMMARY_CASE_FINAL' } });
    expect(again.body.error).toContain('Approved');
    const ru = await request<Env<Summary>>(`${base}/api/v1/verification-cases/${id}/summary/generate`, {
      method: 'POST',
      headers: { ...auth(), 'Accept-Language': 'ru' },
    });
    expect(ru.body.error).toMatch(/Проверка/);
    expect((await call('GET', `${id}/summary`)).body.value.version).toBe(1);
    expect(
      await ds.query(`SELECT count(*)::int AS n FROM verification.case_summaries WHERE case_id = $1`, [id]),
    ).toEqual([{ n: 1 }]);

    const cancelled = await newCase();
    await call('POST', `${cancelled}/cancel`);
    expect((await generate(cancelled)).body.value.reason).toBe('SUMMARY_CASE_FINAL');

    const waiting = await newCase('org-a', keyA, 'AwaitingApplicant');
    const w = await generate(waiting);
    expect(w.status).toBe(409);
    expect(w.body.value.reason).toBe('SUMMARY_CASE_AWAITING_APPLICANT');
    expect(await caseStatus(waiting)).toBe('AwaitingApplicant');
  });

  it('GET before any generation answers 404 SUMMARY_NOT_FOUND; /versions an empty list', async () => {
    const id = await newCase();
    const res = await call('GET', `${id}/summary`);
    expect(res.status).toBe(404);
    expect(res.body.value.reason).toBe('SUMMARY_NOT_FOUND');
    const versions = await call('GET', `${id}/summary/versions`);
    expect(versions.body.value).toEqual({ items: [], total: 0 });
  });

  it("another organization's case answers 404 CASE_NOT_FOUND and nothing changes; bad ids 404, not 500", async () => {
    const id = await newCase();
    await record(id, passedDocument());
    for (const [method, path] of [
      ['POST', `${id}/summary/generate`],
      ['GET', `${id}/summary`],
      ['GET', `${id}/summary/versions`],
    ]) {
      const res = await call(method, path, keyB, 'org-b');
      expect(res.status).toBe(404);
      expect(res.body.value.reason).toBe('CASE_NOT_FOUND');
    }
    expect(await caseStatus(id)).toBe('DocumentsReceived');
    expect(await ds.query(`SELECT id FROM verification.case_summaries WHERE case_id = $1`, [id])).toEqual([]);
    for (const bad of ['not-a-uuid', "1'; DROP TABLE x;--", randomUUID()]) {
      const res = await call('POST', `${encodeURIComponent(bad)}/summary/generate`);
      expect(res.status).toBe(404);
    }
  });

  it('needs cases:write to generate (a read-only key gets 403)', async () => {
    const id = await newCase();
    const res = await generate(id, readOnly);
    expect(res.status).toBe(403);
    expect(await caseStatus(id)).toBe('DocumentsReceived');
  });
});
