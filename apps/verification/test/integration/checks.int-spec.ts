import { randomUUID } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import PDFDocument from 'pdfkit';
import { createTestDatabase, listen, request, serviceEnv } from '@platform/testing';
import { TenancyAdminService, type OrganizationId } from '@platform/tenancy';
import { mrzCheckDigit } from '@platform/verification-checks';
import { createVerificationApp } from '../../src/bootstrap';
import { DocumentOrchestrator } from '../../src/checks/document-orchestrator';
import { DocumentsService } from '../../src/documents/documents.service';

// ICAO Doc 9303 Part 4 specimen (UTOPIA), its expiry moved to 2034 with the check digits recomputed.
function specimenMrz(documentNumber = 'L898902C3', digitFix = 0): string[] {
  const expiry = '340415';
  const docPart = `${documentNumber}${(mrzCheckDigit(documentNumber) + digitFix) % 10}`;
  const base = `${docPart}UTO7408122F${expiry}${mrzCheckDigit(expiry)}ZE184226B<<<<<1`;
  const composite = mrzCheckDigit(base.slice(0, 10) + base.slice(13, 20) + base.slice(21, 43));
  return ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', base + composite];
}

function passportPdf(lines: string[], title = 'PASSPORT (specimen)'): Promise<Buffer> {
  return new Promise((resolve) => {
    const d = new PDFDocument({ size: 'A4' });
    const parts: Buffer[] = [];
    d.on('data', (b: Buffer) => parts.push(b));
    d.on('end', () => resolve(Buffer.concat(parts)));
    d.font('Helvetica').fontSize(14).text(title);
    d.font('Courier').fontSize(10);
    for (const l of lines) d.text(l);
    d.end();
  });
}

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
type Doc = { id: string; status: string; detectedType?: string | null; rejectionReason?: string | null };

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

  describe('the orchestrator (document steps)', () => {
    const upload = async (caseId: string, body: Buffer, contentType = 'application/pdf', org = 'org-a') =>
      app.get(DocumentsService).receive({
        organizationId: org as OrganizationId,
        caseId,
        kind: 'Passport',
        source: 'applicant',
        fileName: 'passport.pdf',
        declaredContentType: contentType,
        body,
      });
    const doc = async (caseId: string, id: string, key = keyA, org = 'org-a') =>
      (
        await request<Env<Doc>>(`${base}/api/v1/verification-cases/${caseId}/documents/${id}`, {
          headers: auth(key, org),
        })
      ).body.value;
    const stepsOf = async (caseId: string, documentId: string, key = keyA, org = 'org-a') =>
      Object.fromEntries(
        (await checks(caseId, key, org)).body.value.items
          .filter((s) => s.documentId === documentId)
          .map((s) => [s.step, s]),
      );
    const orchestrator = () => app.get(DocumentOrchestrator);

    it('checks an uploaded passport without the caller: every step stored, the document Accepted, the case left to the caller', async () => {
      const caseId = await createCase({
        applicantName: 'Anna Maria Eriksson',
        applicantBirthDate: '1974-08-12',
      });
      const d = await upload(caseId, await passportPdf(specimenMrz()));
      expect(await orchestrator().runOnce()).toEqual(['Accepted']);
      const steps = await stepsOf(caseId, d.id);
      expect(Object.keys(steps)).toEqual([
        'file-type',
        'document-parse',
        'mrz-check-digits',
        'document-expiry',
        'name-match',
        'birth-date-match',
        'duplicate-document',
      ]);
      expect(Object.values(steps).map((s) => [s.step, s.outcome, s.rule])).toEqual([
        ['file-type', 'passed', 'file-type.magic-bytes'],
        ['document-parse', 'passed', 'document-parse.pdf-text-mrz'],
        ['mrz-check-digits', 'passed', 'ICAO9303.check-digits'],
        ['document-expiry', 'passed', 'document-expiry.not-expired'],
        ['name-match', 'passed', 'name-match.exact'],
        ['birth-date-match', 'passed', 'birth-date-match.equal'],
        ['duplicate-document', 'passed', 'duplicate-document.none'],
      ]);
      expect(await doc(caseId, d.id)).toMatchObject({ status: 'Accepted' });
      // The borrower may still be uploading: the case moves on when the caller asks for the summary.
      const c = await request<Env<{ status: string }>>(`${base}/api/v1/verification-cases/${caseId}`, {
        headers: auth(),
      });
      expect(c.body.value.status).toBe('DocumentsReceived');
      expect(await orchestrator().runOnce()).toEqual([]);
    });

    it('rejects a document whose MRZ check digit is wrong, and one whose bytes are not the declared type', async () => {
      const caseId = await createCase();
      const badDigit = await upload(caseId, await passportPdf(specimenMrz('L898902C3', 1)));
      const notPdf = await upload(caseId, Buffer.from('\x89PNG\r\n\x1a\n0000', 'latin1'));
      expect((await orchestrator().runOnce()).sort()).toEqual(['Rejected', 'Rejected']);
      const a = await stepsOf(caseId, badDigit.id);
      expect([a['mrz-check-digits'].outcome, a['mrz-check-digits'].rule]).toEqual([
        'failed',
        'ICAO9303.check-digit.document-number',
      ]);
      expect(a['name-match'].outcome).toBe('skipped');
      const b = await stepsOf(caseId, notPdf.id);
      expect([b['file-type'].outcome, b['file-type'].rule, b['document-parse'].rule]).toEqual([
        'failed',
        'file-type.declared-mismatch',
        'document-parse.not-run',
      ]);
      const history = await request<Env<{ statusHistory: { toStatus: string; reason: string | null }[] }>>(
        `${base}/api/v1/verification-cases/${caseId}/documents/${badDigit.id}`,
        { headers: auth() },
      );
      expect(history.body.value.statusHistory.at(-1)).toMatchObject({
        toStatus: 'Rejected',
        reason: 'MRZ_CHECK_FAILED',
      });
      expect((await doc(caseId, notPdf.id)).status).toBe('Rejected');
    });

    it('keeps a name mismatch as a failed step without rejecting the document', async () => {
      const caseId = await createCase({ applicantName: 'Ivan Petrov', applicantBirthDate: '1974-08-12' });
      const d = await upload(caseId, await passportPdf(specimenMrz(), 'Another passport'));
      expect(await orchestrator().runOnce()).toEqual(['Accepted']);
      const steps = await stepsOf(caseId, d.id);
      expect([steps['name-match'].outcome, steps['birth-date-match'].outcome]).toEqual(['failed', 'passed']);
    });

    it('flags the same file and the same document number in another case of the organization, never across organizations', async () => {
      const file = await passportPdf(specimenMrz('D23145890'));
      const first = await createCase();
      const firstDoc = await upload(first, file);
      await orchestrator().runOnce();
      const second = await createCase();
      const secondDoc = await upload(second, file);
      const third = await createCase();
      const thirdDoc = await upload(third, await passportPdf(specimenMrz('D23145890'), 'A rescan'));
      const otherOrg = await createCase({}, keyB, 'org-b');
      const otherDoc = await upload(otherOrg, file, 'application/pdf', 'org-b');
      await orchestrator().runOnce();
      const dup = (await stepsOf(second, secondDoc.id))['duplicate-document'];
      expect([dup.outcome, dup.rule]).toEqual(['warning', 'duplicate-document.same-file']);
      expect(dup.evidence.sameFile).toEqual([{ caseId: first, documentId: firstDoc.id }]);
      const byNumber = (await stepsOf(third, thirdDoc.id))['duplicate-document'];
      expect(byNumber.rule).toBe('duplicate-document.same-document-number');
      expect(byNumber.evidence.sameDocumentNumber).toEqual(
        expect.arrayContaining([{ caseId: first, documentId: firstDoc.id }]),
      );
      const other = (await stepsOf(otherOrg, otherDoc.id, keyB, 'org-b'))['duplicate-document'];
      expect([other.outcome, other.evidence.sameFile, other.evidence.sameDocumentNumber]).toEqual([
        'passed',
        [],
        [],
      ]);
    });

    it('drops a run whose lease another replica took over, and retries a run that could not read the file', async () => {
      const caseId = await createCase();
      const d = await upload(caseId, await passportPdf(specimenMrz('X12345678')));
      const docs = app.get(DocumentsService);
      const [stale] = await docs.claimForProcessing(10, 60_000, 3);
      await ds.query(
        `UPDATE verification.documents SET lease_until = now() - interval '1 second' WHERE id = $1`,
        [d.id],
      );
      const [fresh] = await docs.claimForProcessing(10, 60_000, 3);
      expect([stale.doc.processingAttempts, fresh.doc.processingAttempts]).toEqual([1, 2]);
      const verdict = { accepted: true, reason: null, detectedType: 'application/pdf' };
      const wrote: string[] = [];
      expect(await docs.finishProcessing(stale, verdict, async () => void wrote.push('stale'))).toBe(false);
      expect(await docs.finishProcessing(fresh, verdict, async () => void wrote.push('fresh'))).toBe(true);
      expect(wrote).toEqual(['fresh']);
      expect((await doc(caseId, d.id)).status).toBe('Accepted');

      const unreadable = await upload(caseId, await passportPdf(specimenMrz('Y12345678')));
      await ds.query(`UPDATE verification.documents SET storage_key = storage_key || '-gone' WHERE id = $1`, [
        unreadable.id,
      ]);
      expect(await orchestrator().runOnce()).toEqual(['failed']);
      const row = await ds.query(
        `SELECT status, processing_attempts, lease_until > now() AS leased FROM verification.documents WHERE id = $1`,
        [unreadable.id],
      );
      expect(row[0]).toEqual({ status: 'Processing', processing_attempts: 1, leased: true });
      expect(await orchestrator().runOnce()).toEqual([]);
    });
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
