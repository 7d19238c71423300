import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import PDFDocument from 'pdfkit';
import { chromium, type Browser } from 'playwright-core';
import { ClientCredentials } from 'simple-oauth2';
import { freePort, launchSystem, runAdmin, type RunningSystem } from '@platform/dev-infra';
import { createTestDatabase, request } from '@platform/testing';
import { mrzCheckDigit } from '@platform/verification-checks';

const ROOT = resolve(__dirname, '../../../..');
const DIST = join(ROOT, 'dist');
/** Screenshots, the issued PDF and its rendering (not committed). */
const OUT = join(ROOT, 'tmp', 'verification-e2e');
const ORG = 'org-journey';

type Env<T = Record<string, unknown>> = {
  success: boolean;
  code: number;
  error: string | null;
  value: T & { reason?: string };
};
type Step = { step: string; outcome: string; rule: string; documentId: string | null };

/**
 * An ICAO 9303 TD3 MRZ: the Part 4 specimen (UTOPIA, ERIKSSON ANNA MARIA, born 1974-08-12) with its
 * expiry moved eight years ahead of today, so the document is valid whenever the test runs, and the
 * expiry and composite check digits recomputed for it.
 */
function specimenMrz(): { lines: string[]; expiry: string } {
  const yymmdd = `${String((new Date().getUTCFullYear() + 8) % 100).padStart(2, '0')}0415`;
  const line2 = `L898902C36UTO7408122F${yymmdd}${mrzCheckDigit(yymmdd)}ZE184226B<<<<<1`;
  const composite = line2.slice(0, 10) + line2.slice(13, 20) + line2.slice(21, 43);
  return {
    lines: ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', line2 + mrzCheckDigit(composite)],
    expiry: `20${yymmdd.slice(0, 2)}-04-15`,
  };
}

/** A one-page PDF whose text layer carries the MRZ (Courier, one line each), as a scanner's OCR leaves it. */
function passportPdf(mrz: string[]): Promise<Buffer> {
  return new Promise((done, fail) => {
    const d = new PDFDocument({ size: 'A4' });
    const parts: Buffer[] = [];
    d.on('data', (b: Buffer) => parts.push(b));
    d.on('end', () => done(Buffer.concat(parts)));
    d.on('error', fail);
    d.font('Helvetica').fontSize(14).text('PASSPORT / PASSEPORT  (Utopia, specimen)');
    d.moveDown().fontSize(11).text('Surname: ERIKSSON   Given names: ANNA MARIA   Born: 12 AUG 1974');
    d.moveDown(4).font('Courier').fontSize(10);
    for (const line of mrz) d.text(line);
    d.end();
  });
}

/** Every QR code on every page of a PDF, as `pdftoppm -png -r 150` + `zbarimg --raw -q` read them. */
function qrCodesOf(pdf: Buffer, name: string): string[] {
  const dir = join(OUT, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.pdf`), pdf);
  execFileSync('pdftoppm', ['-png', '-r', '150', join(dir, `${name}.pdf`), join(dir, 'page')]);
  const pages = readdirSync(dir)
    .filter((f) => f.endsWith('.png'))
    .sort()
    .map((f) => join(dir, f));
  expect(pages.length).toBeGreaterThan(0);
  return zbar(pages);
}

/** zbarimg exits 4 when an image holds no code; what it printed for the others still counts. */
function zbar(images: string[]): string[] {
  let out: string;
  try {
    out = execFileSync('zbarimg', ['--raw', '-q', ...images], { encoding: 'utf8' });
  } catch (err) {
    out = String((err as { stdout?: string }).stdout ?? '');
  }
  return out.split('\n').filter(Boolean);
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * Issue 13 as a lender and a borrower meet it: the built apps as processes, every call through the
 * gateway. The lender creates a case (idempotently) and sends the borrower a one-time link; the
 * borrower uploads a passport PDF on the portal page in a real browser (Debian's chromium, headless)
 * and finishes; the orchestrator checks the document on its own (file type, MRZ check digits, name);
 * a sandbox KYC session; the summary and its signed PDF, whose QR code, decoded from the rendered page,
 * opens the public verification address: issued, unaltered, and "altered" after one byte changes. An
 * OAuth client library gets a token at the gateway and lists the cases with it.
 */
describe('verification journey through the gateway: case, portal, checks, provider, summary PDF, OAuth', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let system: RunningSystem;
  let gw: string;
  let pub: string;
  let browser: Browser;
  let apiKey: string;
  let lender: Record<string, string>;
  const mrz = specimenMrz();
  let passport: Buffer;
  let caseId: string;
  let portalUrl: string;
  let documentId: string;

  const call = <T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) =>
    request<Env<T>>(`${gw}${path}`, {
      method,
      headers: { ...lender, 'Accept-Language': 'en', ...headers },
      body: body === undefined && method !== 'GET' ? {} : body,
    });
  const ok = async <T>(p: Promise<{ status: number; body: Env<T> }>) => {
    const r = await p;
    expect([r.status < 300, r.body.value?.reason]).toEqual([true, undefined]);
    return r.body.value;
  };
  /** Polls until `done` holds or the deadline passes; returns the last value either way. */
  const poll = async <T>(read: () => Promise<T>, done: (v: T) => boolean, ms: number): Promise<T> => {
    const deadline = Date.now() + ms;
    let v = await read();
    while (!done(v) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      v = await read();
    }
    return v;
  };

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    passport = await passportPdf(mrz.lines);
    db = await createTestDatabase('e2e_verification');
    const brokers = process.env.KAFKA_BROKERS as string;
    // The services are told their public address (the gateway's) before they start.
    const gatewayPort = await freePort();
    pub = `http://127.0.0.1:${gatewayPort}`;
    system = await launchSystem({
      gatewayPort,
      distDir: DIST,
      databaseUrl: db.url,
      kafkaBrokers: brokers,
      ports: 'free',
      nodeEnv: 'test',
      env: { LOG_LEVEL: 'warn', KAFKA_CONSUMER_MAX_WAIT_MS: '100' },
      appEnv: {
        verification: {
          APPLICANT_PORTAL_URL: pub,
          PUBLIC_VERIFY_URL: pub,
          ORCHESTRATOR_INTERVAL_MS: '200',
          IDENTITY_PROVIDER: 'sandbox',
        },
      },
    });
    gw = system.gatewayUrl;
    const env = { DATABASE_URL: db.url, KAFKA_BROKERS: brokers, NODE_ENV: 'test' };
    runAdmin(DIST, 'verification', ['create-organization', ORG, 'Journey Bank'], env);
    apiKey = (runAdmin(DIST, 'verification', ['issue-key', ORG, 'journey e2e'], env) as { token: string })
      .token;
    lender = { 'X-API-Key': apiKey, 'Service-Organization-Id': ORG };
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await system?.stop();
    await db?.drop();
  });

  it('creates a case; the same Idempotency-Key answers the same case', async () => {
    const body = {
      externalReferenceId: 'APP-E2E-0013',
      applicantType: 'Individual',
      applicantCountryCode: 'KZ',
      reportCountryCode: 'KZ',
      applicantName: 'Anna Maria Eriksson',
      applicantBirthDate: '1974-08-12',
    };
    const key = { 'Idempotency-Key': 'journey-create-1' };
    const first = await call<{ id: string; status: string; applicantUploadUrl: string }>(
      'POST',
      '/api/v1/verification-cases',
      body,
      key,
    );
    expect([first.status, first.body.success, first.body.value.status]).toEqual([
      201,
      true,
      'AwaitingApplicant',
    ]);
    caseId = first.body.value.id;
    // The link is the public origin's (the gateway's), never the service's own address.
    expect(first.body.value.applicantUploadUrl).toMatch(
      new RegExp(`^${pub.replace(/\./g, '\\.')}/portal/v1/upload/vup_[A-Za-z0-9_-]{43}$`),
    );

    // A retry after a timeout: the same case, no second one.
    const again = await call<{ id: string }>('POST', '/api/v1/verification-cases', body, key);
    expect([again.status, again.body.value.id]).toEqual([201, caseId]);
    const found = await ok(
      call<{ items: { id: string }[]; total: number }>(
        'GET',
        '/api/v1/verification-cases?externalReferenceId=APP-E2E-0013',
      ),
    );
    expect([found.total, found.items.map((c) => c.id)]).toEqual([1, [caseId]]);
  });

  it('issues a one-time portal link through the gateway, with a QR code of the same link', async () => {
    const link = await ok(
      call<{ url: string; expiresAt: string; qrCode: { svg: string; pngBase64: string } }>(
        'POST',
        `/api/v1/verification-cases/${caseId}/upload-link`,
        { language: 'en' },
      ),
    );
    portalUrl = link.url;
    expect(new URL(portalUrl).origin).toBe(pub);
    expect(new URL(portalUrl).pathname).toMatch(/^\/portal\/v1\/upload\/vup_[A-Za-z0-9_-]{43}$/);
    const png = join(OUT, 'upload-link-qr.png');
    writeFileSync(png, Buffer.from(link.qrCode.pngBase64, 'base64'));
    expect(zbar([png])).toEqual([portalUrl]);
  });

  it('the borrower uploads the passport PDF through the page and finishes', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true });
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));

    const opened = await page.goto(portalUrl);
    expect(opened?.status()).toBe(200);
    // Served by the gateway: its rate limit of the anonymous portal (120 per 10 minutes) answers.
    expect((await opened?.allHeaders())?.['ratelimit-policy']).toBe('120;w=600');
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    expect(await page.isDisabled('#finish')).toBe(true);

    await page.selectOption('#kind', 'Passport');
    await page.setInputFiles('#file', {
      name: 'passport.pdf',
      mimeType: 'application/pdf',
      buffer: passport,
    });
    await page.locator('#uploaded li.done').first().waitFor({ timeout: 15_000 });
    expect(await page.textContent('#uploaded li.done')).toBe('Passport: passport.pdf');
    await page.screenshot({ path: join(OUT, 'portal-uploaded.png'), fullPage: true });

    await page.click('#finish');
    await page.locator('#thanks').waitFor({ state: 'visible', timeout: 15_000 });
    expect(await page.isVisible('#upload')).toBe(false);
    await page.screenshot({ path: join(OUT, 'portal-thanks.png'), fullPage: true });

    // One-time: the link now says it was used.
    const reopened = await page.goto(portalUrl);
    expect(reopened?.status()).toBe(410);
    expect(problems.filter((p) => !/status of 410/.test(p))).toEqual([]);
    await page.close();

    const docs = await ok(
      call<{ items: { id: string; kind: string; source: string }[]; total: number }>(
        'GET',
        `/api/v1/verification-cases/${caseId}/documents`,
      ),
    );
    expect([docs.total, docs.items[0]?.kind, docs.items[0]?.source]).toEqual([1, 'Passport', 'applicant']);
    documentId = docs.items[0].id;
  }, 60_000);

  it('the orchestrator checks the document on its own: file type, MRZ check digits, name; the document is Accepted', async () => {
    const documentSteps = [
      'file-type',
      'document-parse',
      'mrz-check-digits',
      'document-expiry',
      'name-match',
      'birth-date-match',
      'duplicate-document',
    ];
    const read = () =>
      ok(call<{ items: Step[]; total: number }>('GET', `/api/v1/verification-cases/${caseId}/checks`));
    const checks = await poll(
      read,
      (v) => documentSteps.every((s) => v.items.some((i) => i.step === s)),
      30_000,
    );
    const outcome = Object.fromEntries(checks.items.map((s) => [s.step, [s.outcome, s.rule]]));
    expect(outcome).toEqual({
      'file-type': ['passed', 'file-type.magic-bytes'],
      'document-parse': ['passed', 'document-parse.pdf-text-mrz'],
      'mrz-check-digits': ['passed', 'ICAO9303.check-digits'],
      'document-expiry': ['passed', 'document-expiry.not-expired'],
      'name-match': ['passed', 'name-match.exact'],
      'birth-date-match': ['passed', 'birth-date-match.equal'],
      'duplicate-document': ['passed', 'duplicate-document.none'],
    });
    expect(new Set(checks.items.map((s) => s.documentId))).toEqual(new Set([documentId]));

    // The steps are stored with the document's move, in one transaction.
    const doc = await ok(
      call<{ status: string; statusHistory: { toStatus: string }[] }>(
        'GET',
        `/api/v1/verification-cases/${caseId}/documents/${documentId}`,
      ),
    );
    expect(doc.status).toBe('Accepted');
    expect(doc.statusHistory.map((h) => h.toStatus)).toEqual(['Uploaded', 'Processing', 'Accepted']);
    // The orchestrator does not move the case (docs/verification/checks.md): the borrower or the
    // caller may still add documents; the summary moves it through Checking (below).
    const theCase = await ok(call<{ status: string }>('GET', `/api/v1/verification-cases/${caseId}`));
    expect(theCase.status).toBe('DocumentsReceived');
  }, 45_000);

  it('starts a sandbox KYC session: clear, stored as a provider step', async () => {
    const started = await call<{
      kind: string;
      provider: string;
      status: string;
      result: string;
      breakdown: Record<string, { result: string }>;
    }>('POST', `/api/v1/verification-cases/${caseId}/provider-checks/start-session`);
    expect(started.status).toBe(201);
    expect(started.body.value).toMatchObject({
      kind: 'KYC',
      provider: 'sandbox',
      status: 'Completed',
      result: 'clear',
    });
    expect(Object.values(started.body.value.breakdown).map((b) => b.result)).toEqual([
      'clear',
      'clear',
      'clear',
    ]);
    const checks = await ok(call<{ items: Step[] }>('GET', `/api/v1/verification-cases/${caseId}/checks`));
    expect(checks.items.filter((s) => s.step === 'provider-kyc').map((s) => [s.outcome, s.rule])).toEqual([
      ['passed', 'provider-kyc.clear'],
    ]);
  });

  it('generates the summary; its PDF carries a QR code to the public address: issued, unaltered, then altered', async () => {
    const summary = await ok(
      call<{
        recommendation: string;
        caseStatus: string;
        identityMatch: { status: string };
        authenticity: { status: string };
        flags: unknown[];
      }>('POST', `/api/v1/verification-cases/${caseId}/summary/generate`),
    );
    expect(summary).toMatchObject({
      recommendation: 'approve',
      caseStatus: 'Approved',
      identityMatch: { status: 'match' },
      authenticity: { status: 'passed' },
      flags: [],
    });
    const history = await ok(
      call<{ items: { toStatus: string }[] }>('GET', `/api/v1/verification-cases/${caseId}/history`),
    );
    expect(history.items.map((h) => h.toStatus)).toEqual([
      'AwaitingApplicant',
      'DocumentsReceived',
      'Checking',
      'Approved',
    ]);

    const res = await fetch(`${gw}/api/v1/verification-cases/${caseId}/summary/pdf?language=en`, {
      headers: lender,
    });
    expect([res.status, res.headers.get('content-type')]).toEqual([200, 'application/pdf']);
    const pdf = Buffer.from(await res.arrayBuffer());
    const reportId = String(res.headers.get('x-report-id'));
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(res.headers.get('x-report-sha256')).toBe(sha256(pdf));

    // The QR code as a phone reads it off the rendered page: the public verification address.
    const address = `${pub}/verify/v1/reports/${reportId}`;
    expect(qrCodesOf(pdf, 'report')).toEqual([address]);

    // Through the gateway (its own budget of /verify/v1 answers), as JSON: issued, current.
    const view = await fetch(address, { headers: { Accept: 'application/json' } });
    expect(view.headers.get('ratelimit-policy')).toBe('120;w=60');
    const public_ = ((await view.json()) as Env<Record<string, unknown>>).value;
    expect(public_).toMatchObject({
      reportId,
      issuedByPlatform: true,
      organizationName: 'Journey Bank',
      status: 'current',
      sha256: sha256(pdf),
    });

    const check = async (body: Buffer) => {
      const r = await fetch(`${address}/check`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/pdf', Accept: 'application/json' },
        body,
      });
      expect(r.status).toBe(200);
      return ((await r.json()) as Env<{ result: string; signatureValid: boolean | null; sha256: string }>)
        .value;
    };
    expect(await check(pdf)).toMatchObject({
      result: 'unaltered',
      signatureValid: true,
      sha256: sha256(pdf),
    });
    // One byte changed in the middle of the file: no longer the report issued.
    const altered = Buffer.from(pdf);
    altered[Math.floor(altered.length / 2)] ^= 0x01;
    expect(await check(altered)).toMatchObject({ result: 'altered', signatureValid: false });

    // The same in a browser, the way a reader holding the PDF uses the page the QR code opens.
    const page = await browser.newPage();
    await page.goto(`${address}?lang=en`);
    expect(await page.textContent('h1')).toBe('Report verification');
    expect(await page.textContent('.badge.ok')).toBe('Issued by this platform');
    await page.screenshot({ path: join(OUT, 'verify-page.png'), fullPage: true });
    for (const [file, verdict] of [
      [pdf, 'Unaltered'],
      [altered, 'Altered'],
    ] as const) {
      await page.setInputFiles('input[name="file"]', {
        name: 'report.pdf',
        mimeType: 'application/pdf',
        buffer: file,
      });
      await Promise.all([
        page.waitForURL(/\/check/),
        page.click('form[enctype="multipart/form-data"] button'),
      ]);
      expect(await page.textContent('h1')).toBe(verdict);
      await page.screenshot({ path: join(OUT, `verify-${verdict.toLowerCase()}.png`), fullPage: true });
      await page.goto(`${address}?lang=en`);
    }
    await page.close();
  }, 60_000);

  it('an OAuth client library gets a token at the gateway and lists the cases with it', async () => {
    const client = new ClientCredentials({
      client: { id: ORG, secret: apiKey },
      auth: { tokenHost: gw, tokenPath: '/api/v1/oauth/token' },
      options: { authorizationMethod: 'header' },
    });
    const token = await client.getToken({ scope: 'cases:read' });
    expect([token.token.token_type, token.token.scope]).toEqual(['Bearer', 'cases:read']);
    const access = String(token.token.access_token);
    expect(access).toMatch(/^vat_/);
    const list = await request<Env<{ items: { id: string; status: string }[]; total: number }>>(
      `${gw}/api/v1/verification-cases`,
      { headers: { Authorization: `Bearer ${access}` } },
    );
    expect([list.status, list.body.value.total, list.body.value.items.map((c) => [c.id, c.status])]).toEqual([
      200,
      1,
      [[caseId, 'Approved']],
    ]);
    // The token carries only what was asked for.
    const write = await request<Env>(`${gw}/api/v1/verification-cases/${caseId}/cancel`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${access}` },
      body: {},
    });
    expect([write.status, write.body.value.reason]).toEqual([403, 'SCOPE_MISSING']);
  });
});
