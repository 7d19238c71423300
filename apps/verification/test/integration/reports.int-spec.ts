import { execFileSync } from 'node:child_process';
import { createHash, createPublicKey, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { createLocalJWKSet, flattenedVerify, type JSONWebKeySet } from 'jose';
import { DataSource } from 'typeorm';
import { createTestDatabase, listen, request, serviceEnv } from '@platform/testing';
import { TenancyAdminService } from '@platform/tenancy';
import { verifyReport, type OkpPublicJwk } from '@platform/verification-checks';
import { createVerificationApp } from '../../src/bootstrap';
import { ReportsService } from '../../src/reports/reports.service';
import { SummariesRepository } from '../../src/summary/summaries.repository';

type Env<T = unknown> = { success: boolean; code: number; error: string | null; value: T };
type Reason = { reason?: string };
type PublicReport = {
  reportId: string;
  issuedByPlatform: boolean;
  issuedAt: string;
  organizationName: string;
  status: string;
  supersededBy: string | null;
  revokedAt: string | null;
  passwordProtected: boolean;
  sha256: string;
  signature: string;
  kid: string;
} & Reason;
type Check = { result: string; sha256: string; signatureValid: boolean | null; status: string } & Reason;
type Issuance = {
  reportId: string;
  status: string;
  supersededBy: string | null;
  revocationReason: string | null;
};

const VERIFY_ORIGIN = 'https://verify.example.com';

/**
 * The summary report (PDF, QR code, signature, issuance log) and its public verification address
 * (docs/verification/reports.md), over real HTTP and PostgreSQL, with Debian's pdftoppm, zbarimg and
 * pdftotext reading the PDF the way a person's phone and a third party would.
 */
describe('verification summary reports and their public verification (real PostgreSQL)', () => {
  let app: INestApplication;
  let base: string;
  let ds: DataSource;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let keyA: string;
  let keyB: string;
  let readOnly: string;
  let work: string;
  let caseId: string;
  let bareCaseId: string;
  // The first report (Russian) and the second (Kazakh, with a share password), issued in order.
  let first: { id: string; pdf: Buffer; path: string };
  let second: { id: string; pdf: Buffer };
  const PASSWORD = 'correct horse battery staple';

  const auth = (key = keyA, org = 'org-a') => ({ 'X-API-Key': key, 'Service-Organization-Id': org });

  async function createCase(ref: string): Promise<string> {
    const res = await request<Env<{ id: string }>>(`${base}/api/v1/verification-cases`, {
      method: 'POST',
      headers: { ...auth(), 'Idempotency-Key': randomUUID() },
      body: {
        externalReferenceId: ref,
        applicantType: 'Individual',
        applicantCountryCode: 'KZ',
        reportCountryCode: 'KZ',
        applicantName: 'Айгерим Серикқызы Нұрланова',
        applicantBirthDate: '1990-04-17',
      },
    });
    expect(res.status).toBe(201);
    return res.body.value.id;
  }

  /** A summary row in the summary area's table (its documented columns). */
  async function addSummary(org: string, id: string, version: number): Promise<void> {
    await ds.query(
      `INSERT INTO verification.case_summaries
         (id, organization_id, case_id, version, generated_at, identity_match, authenticity, flags,
          recommendation, rules_version)
       VALUES ($1, $2, $3, $4, now(), $5, $6, $7, 'review', '2026.11')`,
      [
        randomUUID(),
        org,
        id,
        version,
        JSON.stringify({ status: 'partial', name: 'match', birthDate: 'mismatch' }),
        JSON.stringify({ status: 'passed' }),
        JSON.stringify([
          {
            code: 'BIRTH_DATE_MISMATCH',
            severity: 'high',
            rule: 'identity.birth-date-match',
            evidence: { case: '1990-04-17', document: '1990-07-14' },
            stepId: 'step-parse-1',
          },
        ]),
      ],
    );
  }

  async function issue(
    id: string,
    opts: { language?: string; password?: string; key?: string; org?: string } = {},
  ): Promise<{ status: number; pdf: Buffer; headers: Headers; json?: Env<Reason> }> {
    const res = opts.password
      ? await fetch(`${base}/api/v1/verification-cases/${id}/summary/pdf`, {
          method: 'POST',
          headers: { ...auth(opts.key, opts.org), 'content-type': 'application/json' },
          body: JSON.stringify({ language: opts.language, sharePassword: opts.password }),
        })
      : await fetch(
          `${base}/api/v1/verification-cases/${id}/summary/pdf${opts.language ? `?language=${opts.language}` : ''}`,
          { headers: auth(opts.key, opts.org) },
        );
    const pdf = Buffer.from(await res.arrayBuffer());
    const json = res.headers.get('content-type')?.includes('json')
      ? (JSON.parse(pdf.toString()) as Env<Reason>)
      : undefined;
    return { status: res.status, pdf, headers: res.headers, json };
  }

  const publicJson = (path: string) =>
    request<Env<PublicReport>>(`${base}${path}`, { headers: { Accept: 'application/json' } });
  const publicHtml = async (path: string, lang?: string) => {
    const res = await fetch(`${base}${path}${lang ? `?lang=${lang}` : ''}`, {
      headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' },
    });
    return { status: res.status, headers: res.headers, html: await res.text() };
  };
  const checkPdf = async (reportId: string, bytes: Buffer) => {
    const res = await fetch(`${base}/verify/v1/reports/${reportId}/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/pdf' },
      body: new Uint8Array(bytes),
    });
    return { status: res.status, body: (await res.json()) as Env<Check> };
  };

  /** What a phone does: render page 1 at 150 dpi and read the QR code. */
  function qrOf(pdf: Buffer, name: string): string {
    const file = join(work, `${name}.pdf`);
    writeFileSync(file, pdf);
    execFileSync('pdftoppm', [
      '-png',
      '-r',
      '150',
      '-f',
      '1',
      '-l',
      '1',
      '-singlefile',
      file,
      join(work, name),
    ]);
    return execFileSync('zbarimg', ['-q', '--raw', join(work, `${name}.png`)])
      .toString()
      .trim();
  }

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'reports-'));
    db = await createTestDatabase('verification_reports');
    app = await createVerificationApp({ ...serviceEnv(db.url), PUBLIC_VERIFY_URL: VERIFY_ORIGIN }, false);
    base = await listen(app);
    ds = app.get(DataSource);
    const admin = app.get(TenancyAdminService);
    await admin.createOwner('org-a', 'Alem Bank');
    await admin.createOwner('org-b', 'B');
    keyA = (await admin.issueKey('org-a', 'a')).token;
    keyB = (await admin.issueKey('org-b', 'b')).token;
    readOnly = (await admin.issueKey('org-a', 'ro', { scopes: ['cases:read'] })).token;
    caseId = await createCase('APP-REPORT-1');
    bareCaseId = await createCase('APP-REPORT-2');
    await addSummary('org-a', caseId, 1);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await db?.drop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('answers 404 SUMMARY_NOT_FOUND for a case without a summary, and 404 CASE_NOT_FOUND for another organization', async () => {
    const none = await issue(bareCaseId);
    expect([none.status, none.json?.value.reason]).toEqual([404, 'SUMMARY_NOT_FOUND']);
    const foreign = await issue(caseId, { key: keyB, org: 'org-b' });
    expect([foreign.status, foreign.json?.value.reason]).toEqual([404, 'CASE_NOT_FOUND']);
    const unknown = await issue(randomUUID());
    expect([unknown.status, unknown.json?.value.reason]).toEqual([404, 'CASE_NOT_FOUND']);
    const badLanguage = await issue(caseId, { language: 'de' });
    expect(badLanguage.status).toBe(400);
  });

  it('issues a PDF whose QR code, read at 150 dpi, leads to its public address: issued and current', async () => {
    const res = await issue(caseId, { language: 'ru' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const id = String(res.headers.get('x-report-id'));
    expect(res.headers.get('x-report-sha256')).toBe(createHash('sha256').update(res.pdf).digest('hex'));

    const url = qrOf(res.pdf, 'first');
    expect(url).toBe(`${VERIFY_ORIGIN}/verify/v1/reports/${id}`);
    const path = new URL(url).pathname;
    first = { id, pdf: res.pdf, path };

    const page = await publicJson(path);
    expect(page.status).toBe(200);
    expect(page.body.value).toMatchObject({
      reportId: id,
      issuedByPlatform: true,
      organizationName: 'Alem Bank',
      status: 'current',
      supersededBy: null,
      passwordProtected: false,
      sha256: res.headers.get('x-report-sha256'),
      signature: res.headers.get('x-report-signature'),
    });
    // Minimal data: nothing about the applicant without the password.
    expect(JSON.stringify(page.body)).not.toMatch(/Айгерим|1990-04-17|APP-REPORT-1/);
    expect(page.headers.get('cache-control')).toBe('no-store');
  });

  it('writes the Russian report in Cyrillic (embedded font), with the case, results and flags', () => {
    const file = join(work, 'first.pdf');
    const text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-']).toString();
    expect(text).toContain('Сводка проверки');
    expect(text).toContain('Заявитель');
    expect(text).toContain('Айгерим Серикқызы Нұрланова');
    expect(text).toContain('Частичное совпадение');
    expect(text).toContain('Ручная проверка');
    expect(text).toContain('BIRTH_DATE_MISMATCH');
    expect(text).toContain('identity.birth-date-match');
    expect(text).toContain('APP-REPORT-1');
    expect(text).toContain(first.id);
  });

  it('checks a PDF: the same bytes are unaltered, one flipped byte is altered; a hash alone works too', async () => {
    const same = await checkPdf(first.id, first.pdf);
    expect(same.status).toBe(200);
    expect(same.body.value).toMatchObject({ result: 'unaltered', signatureValid: true, status: 'current' });

    const flipped = Buffer.from(first.pdf);
    flipped[Math.floor(flipped.length / 2)] ^= 0x01;
    const altered = await checkPdf(first.id, flipped);
    expect(altered.body.value).toMatchObject({ result: 'altered', signatureValid: false });

    const byHash = await request<Env<Check>>(`${base}/verify/v1/reports/${first.id}/check`, {
      body: { sha256: createHash('sha256').update(first.pdf).digest('hex') },
    });
    expect(byHash.body.value).toMatchObject({ result: 'unaltered', signatureValid: null });
    const wrongHash = await request<Env<Check>>(`${base}/verify/v1/reports/${first.id}/check`, {
      body: { sha256: 'a'.repeat(64) },
    });
    expect(wrongHash.body.value.result).toBe('altered');
    const notAHash = await request<Env<Check>>(`${base}/verify/v1/reports/${first.id}/check`, {
      body: { sha256: 'xyz' },
    });
    expect([notAHash.status, notAHash.body.value.reason]).toEqual([400, 'REPORT_CHECK_INPUT_INVALID']);
    const empty = await checkPdf(first.id, Buffer.alloc(0));
    expect([empty.status, empty.body.value.reason]).toEqual([400, 'REPORT_CHECK_EMPTY']);
  });

  it("checks a file sent by the page's form (multipart) and answers a page in the browser's language", async () => {
    const form = new FormData();
    form.append('file', new Blob([first.pdf], { type: 'application/pdf' }), 'report.pdf');
    const res = await fetch(`${base}/verify/v1/reports/${first.id}/check?lang=es`, {
      method: 'POST',
      headers: { Accept: 'text/html' },
      body: form,
    });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('Sin alteraciones');
    expect(html).toContain('Este PDF es exactamente el informe emitido');
  });

  it('publishes the key: the stored detached JWS verifies through the JWKS, with a JOSE library and with openssl', async () => {
    const jwks = await request<{ keys: OkpPublicJwk[] }>(`${base}/verify/v1/jwks.json`);
    expect(jwks.status).toBe(200);
    expect(jwks.body.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    expect(jwks.body.keys[0]).not.toHaveProperty('d');
    const [row] = (await ds.query(
      'SELECT signature, kid, sha256 FROM verification.report_issuances WHERE id = $1',
      [first.id],
    )) as { signature: string; kid: string; sha256: string }[];
    expect(row.sha256).toBe(createHash('sha256').update(first.pdf).digest('hex'));
    expect(verifyReport(first.pdf, row.signature, jwks.body.keys)).toEqual({ valid: true, kid: row.kid });
    expect(
      verifyReport(Buffer.concat([first.pdf, Buffer.from('\n')]), row.signature, jwks.body.keys).valid,
    ).toBe(false);

    // Independently, with a JOSE library (the snippet of docs/verification/reports.md).
    const [header, , signature] = row.signature.split('.');
    const verified = await flattenedVerify(
      { protected: header, payload: first.pdf, signature },
      createLocalJWKSet(jwks.body as unknown as JSONWebKeySet),
      { algorithms: ['EdDSA'], crit: { b64: true } },
    );
    expect(verified.protectedHeader).toMatchObject({ alg: 'EdDSA', kid: row.kid, b64: false });
    await expect(
      flattenedVerify(
        { protected: header, payload: Buffer.concat([first.pdf, Buffer.from(' ')]), signature },
        createLocalJWKSet(jwks.body as unknown as JSONWebKeySet),
        { algorithms: ['EdDSA'], crit: { b64: true } },
      ),
    ).rejects.toThrow();

    // And with openssl: the JWS signing input is BASE64URL(header) "." raw PDF bytes (RFC 7797).
    const jwk = jwks.body.keys.find((k) => k.kid === row.kid) as OkpPublicJwk;
    const pem = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' }).export({
      type: 'spki',
      format: 'pem',
    });
    writeFileSync(join(work, 'pub.pem'), pem);
    writeFileSync(join(work, 'input.bin'), Buffer.concat([Buffer.from(`${header}.`), first.pdf]));
    writeFileSync(join(work, 'sig.bin'), Buffer.from(signature, 'base64url'));
    const out = execFileSync('openssl', [
      'pkeyutl',
      '-verify',
      '-pubin',
      '-inkey',
      join(work, 'pub.pem'),
      '-rawin',
      '-in',
      join(work, 'input.bin'),
      '-sigfile',
      join(work, 'sig.bin'),
    ]).toString();
    expect(out).toContain('Signature Verified Successfully');
  });

  it('a second report supersedes the first: the first one says by which', async () => {
    const res = await issue(caseId, { language: 'kk', password: PASSWORD });
    expect(res.status).toBe(200);
    second = { id: String(res.headers.get('x-report-id')), pdf: res.pdf };
    expect(second.id).not.toBe(first.id);
    expect(qrOf(res.pdf, 'second')).toBe(`${VERIFY_ORIGIN}/verify/v1/reports/${second.id}`);

    const old = await publicJson(first.path);
    expect(old.body.value).toMatchObject({ status: 'superseded', supersededBy: second.id });
    const oldPage = await publicHtml(first.path, 'en');
    expect(oldPage.html).toContain('Superseded by a newer report');
    expect(oldPage.html).toContain(second.id);
    const current = await publicJson(`/verify/v1/reports/${second.id}`);
    expect(current.body.value).toMatchObject({ status: 'current', passwordProtected: true });
    // Issued within the same second or not, the second report's issue time is the later one.
    expect(Date.parse(current.body.value.issuedAt)).toBeGreaterThan(Date.parse(old.body.value.issuedAt));
    // The old PDF is still unaltered: superseded is a status, not an alteration.
    expect((await checkPdf(first.id, first.pdf)).body.value).toMatchObject({
      result: 'unaltered',
      status: 'superseded',
    });
  });

  it('shows the page in each of the six languages, with a switcher, under a strict CSP', async () => {
    const titles: Record<string, string> = {
      en: 'Report verification',
      ru: 'Проверка отчёта',
      kk: 'Есепті тексеру',
      uz: 'Hisobotni tekshirish',
      tr: 'Rapor doğrulama',
      es: 'Verificación del informe',
    };
    for (const [lang, title] of Object.entries(titles)) {
      const page = await publicHtml(`/verify/v1/reports/${second.id}`, lang);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.html).toContain(`<html lang="${lang}">`);
      expect(page.html).toContain(title);
      expect(page.html).toContain(`href="/verify/v1/reports/${second.id}?lang=ru"`);
    }
    const byHeader = await fetch(`${base}/verify/v1/reports/${second.id}`, {
      headers: { Accept: 'text/html', 'Accept-Language': 'tr-TR,tr;q=0.9' },
    });
    expect(await byHeader.text()).toContain('Rapor doğrulama');
    const csp = String(byHeader.headers.get('content-security-policy'));
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).not.toContain('unsafe-inline');
  });

  it('opens the full report with the password, refuses a wrong one, and a report without one', async () => {
    const open = (id: string, password: unknown) =>
      request<Env<{ content: { case: { applicantName: string } }; pdfBase64: string } & Reason>>(
        `${base}/verify/v1/reports/${id}/open`,
        { body: { password } },
      );
    const ok = await open(second.id, PASSWORD);
    expect(ok.status).toBe(200);
    expect(ok.body.value.content.case.applicantName).toBe('Айгерим Серикқызы Нұрланова');
    expect(Buffer.from(ok.body.value.pdfBase64, 'base64').equals(second.pdf)).toBe(true);

    const wrong = await open(second.id, `${PASSWORD}!`);
    expect([wrong.status, wrong.body.value.reason]).toEqual([403, 'REPORT_PASSWORD_INVALID']);
    const none = await open(first.id, PASSWORD);
    expect([none.status, none.body.value.reason]).toEqual([403, 'REPORT_PASSWORD_INVALID']);
    const missing = await open(second.id, 42);
    expect([missing.status, missing.body.value.reason]).toEqual([400, 'REPORT_PASSWORD_MISSING']);

    // The page's form: the issued PDF itself.
    const form = await fetch(`${base}/verify/v1/reports/${second.id}/open`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', Accept: 'text/html' },
      body: new URLSearchParams({ password: PASSWORD }).toString(),
    });
    expect(form.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await form.arrayBuffer()).equals(second.pdf)).toBe(true);
    const wrongForm = await fetch(`${base}/verify/v1/reports/${second.id}/open?lang=ru`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', Accept: 'text/html' },
      body: 'password=nope',
    });
    expect(wrongForm.status).toBe(403);
    expect(await wrongForm.text()).toContain('Пароль не подходит к этому отчёту.');
  });

  it('revokes a report: its address says revoked, it no longer opens, and the log lists both', async () => {
    const revoke = (id: string, key = keyA, org = 'org-a', cid = caseId) =>
      request<Env<Issuance & Reason>>(`${base}/api/v1/verification-cases/${cid}/reports/${id}/revoke`, {
        headers: auth(key, org),
        body: { reason: 'Issued for the wrong applicant' },
      });
    expect((await revoke(second.id, readOnly)).status).toBe(403);
    const foreign = await revoke(second.id, keyB, 'org-b');
    expect([foreign.status, foreign.body.value.reason]).toEqual([404, 'CASE_NOT_FOUND']);
    const elsewhere = await revoke(second.id, keyA, 'org-a', bareCaseId);
    expect([elsewhere.status, elsewhere.body.value.reason]).toEqual([404, 'REPORT_NOT_FOUND']);

    const done = await revoke(second.id);
    expect(done.status).toBe(200);
    expect(done.body.value).toMatchObject({
      status: 'revoked',
      revocationReason: 'Issued for the wrong applicant',
    });
    expect([(await revoke(second.id)).status, (await revoke(second.id)).body.value.reason]).toEqual([
      409,
      'REPORT_ALREADY_REVOKED',
    ]);

    const page = await publicJson(`/verify/v1/reports/${second.id}`);
    expect(page.body.value.status).toBe('revoked');
    expect(page.body.value.revokedAt).not.toBeNull();
    expect(JSON.stringify(page.body)).not.toContain('wrong applicant');
    expect((await publicHtml(`/verify/v1/reports/${second.id}`, 'ru')).html).toContain(
      'Отозван выпустившей организацией',
    );
    const open = await request<Env<Reason>>(`${base}/verify/v1/reports/${second.id}/open`, {
      body: { password: PASSWORD },
    });
    expect([open.status, open.body.value.reason]).toEqual([410, 'REPORT_REVOKED']);

    const log = await request<Env<{ items: Issuance[]; total: number }>>(
      `${base}/api/v1/verification-cases/${caseId}/reports`,
      { headers: auth(readOnly) },
    );
    expect(log.body.value.total).toBe(2);
    expect(log.body.value.items.map((i) => [i.reportId, i.status])).toEqual([
      [second.id, 'revoked'],
      [first.id, 'superseded'],
    ]);
    const foreignLog = await request<Env<Reason>>(`${base}/api/v1/verification-cases/${caseId}/reports`, {
      headers: auth(keyB, 'org-b'),
    });
    expect([foreignLog.status, foreignLog.body.value.reason]).toEqual([404, 'CASE_NOT_FOUND']);
  });

  it('answers an unknown id "not issued by this platform": 404 in the envelope, or as a page', async () => {
    const id = randomUUID();
    const json = await publicJson(`/verify/v1/reports/${id}`);
    expect([json.status, json.body.value.reason]).toEqual([404, 'REPORT_NOT_FOUND']);
    const page = await publicHtml(`/verify/v1/reports/${id}`, 'uz');
    expect(page.status).toBe(404);
    expect(page.html).toContain('Ushbu platforma tomonidan berilmagan');
    const junk = await publicJson('/verify/v1/reports/not-a-uuid');
    expect([junk.status, junk.body.value.reason]).toEqual([404, 'REPORT_NOT_FOUND']);
    expect((await checkPdf(id, first.pdf)).status).toBe(404);
  });

  it('keeps the log append-only: issued columns never change and rows are never deleted', async () => {
    await expect(
      ds.query(`UPDATE verification.report_issuances SET sha256 = 'x' WHERE id = $1`, [first.id]),
    ).rejects.toThrow(/append-only/);
    await expect(
      ds.query(`UPDATE verification.report_issuances SET revoked_at = NULL WHERE id = $1`, [second.id]),
    ).rejects.toThrow(/append-only/);
    await expect(
      ds.query(`DELETE FROM verification.report_issuances WHERE id = $1`, [first.id]),
    ).rejects.toThrow(/append-only/);
  });

  it("reports the summary area's own latest version, read through its SummariesRepository", async () => {
    // One reader of verification.case_summaries: the report service holds the summary area's repository.
    const service = app.get(ReportsService) as unknown as { summaries: unknown };
    expect(service.summaries).toBe(app.get(SummariesRepository));

    const id = await createCase('APP-REPORT-3');
    await ds.query(`UPDATE verification.verification_cases SET status = 'DocumentsReceived' WHERE id = $1`, [
      id,
    ]);
    const generate = () =>
      request<Env<{ id: string; version: number }>>(
        `${base}/api/v1/verification-cases/${id}/summary/generate`,
        { method: 'POST', headers: auth() },
      );
    expect((await generate()).status).toBe(200);
    expect((await generate()).body.value.version).toBe(2);
    const latest = await request<Env<Record<string, unknown>>>(
      `${base}/api/v1/verification-cases/${id}/summary`,
      { headers: auth() },
    );
    expect(latest.body.value.version).toBe(2);

    const res = await issue(id, { language: 'en' });
    expect(res.status).toBe(200);
    const reportId = String(res.headers.get('x-report-id'));
    const [row] = await ds.query(
      `SELECT summary_id, summary_version, content->'summary' AS summary
         FROM verification.report_issuances WHERE id = $1`,
      [reportId],
    );
    expect([row.summary_id, row.summary_version]).toEqual([latest.body.value.id, 2]);
    // What the report keeps is exactly what the summary area answers (its shape, flags and citations).
    expect(row.summary).toEqual(latest.body.value);
  });
});
