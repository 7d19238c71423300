import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createTestDatabase, listen, request, serviceEnv } from '@platform/testing';
import { TenancyAdminService } from '@platform/tenancy';
import { createVerificationApp } from '../../src/bootstrap';
import { hashUploadToken } from '../../src/cases/upload-token-issuer';

type Env<T = unknown> = { success: boolean; code: number; error: string | null; value: T };
type Link = {
  url: string;
  expiresAt: string;
  language: string | null;
  qrCode: { svg: string; pngBase64: string };
  reason?: string;
};

const ORIGIN = 'https://verify.example.com';
/** A 1x1 PNG: what a phone's photo looks like to the sniffers, in 67 bytes. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
/** The page title in each language (i18n/<lang>/portal.json `page.title`). */
const TITLES: Record<string, string> = {
  en: 'Upload your documents',
  ru: 'Загрузите документы',
  kk: 'Құжаттарыңызды жүктеңіз',
  uz: 'Hujjatlaringizni yuklang',
  tr: 'Belgelerinizi yükleyin',
  es: 'Suba sus documentos',
};

describe('borrower upload portal (real PostgreSQL, real HTTP)', () => {
  let app: INestApplication;
  let base: string;
  let ds: DataSource;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let keyA: string;
  let keyB: string;
  let n = 0;

  beforeAll(async () => {
    db = await createTestDatabase('verification_portal');
    app = await createVerificationApp({ ...serviceEnv(db.url), APPLICANT_PORTAL_URL: ORIGIN }, false);
    base = await listen(app);
    ds = app.get(DataSource);
    const admin = app.get(TenancyAdminService);
    await admin.createOwner('org-a', 'A');
    await admin.createOwner('org-b', 'B');
    keyA = (await admin.issueKey('org-a', 'a')).token;
    keyB = (await admin.issueKey('org-b', 'b')).token;
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  const auth = (key = keyA, org = 'org-a') => ({ 'X-API-Key': key, 'Service-Organization-Id': org });
  /** A new case; returns its id and the token of its creation link. */
  const newCase = async (applicantType = 'Individual', key = keyA, org = 'org-a') => {
    const res = await request<Env<{ id: string; applicantUploadUrl: string }>>(
      `${base}/api/v1/verification-cases`,
      {
        method: 'POST',
        headers: { ...auth(key, org), 'Idempotency-Key': `portal-${++n}` },
        body: {
          externalReferenceId: `P-${n}`,
          applicantType,
          applicantCountryCode: 'KZ',
          reportCountryCode: 'KZ',
        },
      },
    );
    expect(res.status).toBe(201);
    return { id: res.body.value.id, token: tokenOf(res.body.value.applicantUploadUrl) };
  };
  const tokenOf = (url: string) => url.slice(`${ORIGIN}/portal/v1/upload/`.length);
  const link = (id: string, body?: unknown, key = keyA, org = 'org-a') =>
    request<Env<Link>>(`${base}/api/v1/verification-cases/${id}/upload-link`, {
      method: 'POST',
      headers: auth(key, org),
      body,
    });
  /** The page as a browser asks for it. */
  const page = (token: string, query = '', headers: Record<string, string> = {}) =>
    fetch(`${base}/portal/v1/upload/${token}${query}`, {
      headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8', ...headers },
    });
  /** The page's upload: the file's bytes as the body (not through `request`, which adds a JSON type). */
  const upload = async (
    token: string,
    kind: string,
    body: Buffer = PNG,
    type = 'image/png',
    name = 'photo.png',
  ) => {
    const res = await fetch(`${base}/portal/v1/upload/${token}/documents`, {
      method: 'POST',
      headers: { 'Content-Type': type, 'X-Document-Kind': kind, 'X-File-Name': encodeURIComponent(name) },
      body,
    });
    return {
      status: res.status,
      headers: res.headers,
      body: (await res.json()) as Env<{
        documentId: string;
        kind: string;
        fileName: string;
        sizeBytes: number;
        reason?: string;
      }>,
    };
  };
  const finish = (token: string, headers: Record<string, string> = {}) =>
    request<Env<{ finishedAt?: string; reason?: string }>>(`${base}/portal/v1/upload/${token}/finish`, {
      method: 'POST',
      headers,
    });
  const statusOf = async (id: string) =>
    (
      (await ds.query('SELECT status FROM verification.verification_cases WHERE id = $1', [id])) as {
        status: string;
      }[]
    )[0].status;
  const documentsOf = async (id: string) =>
    Number(
      (
        (await ds.query('SELECT count(*)::int AS n FROM verification.documents WHERE case_id = $1', [
          id,
        ])) as { n: number }[]
      )[0].n,
    );

  describe('POST .../upload-link', () => {
    it('answers a fresh one-time link with its QR code (SVG and PNG), stored only as a hash', async () => {
      const c = await newCase();
      const res = await link(c.id, { expiresInHours: 2, language: 'kk' });
      expect(res.status).toBe(201);
      const v = res.body.value;
      expect(v.url).toMatch(/^https:\/\/verify\.example\.com\/portal\/v1\/upload\/vup_[A-Za-z0-9_-]{43}$/);
      expect(tokenOf(v.url)).not.toBe(c.token);
      expect(v.language).toBe('kk');
      const ttl = new Date(v.expiresAt).getTime() - Date.now();
      expect(ttl).toBeGreaterThan(2 * 3600_000 - 60_000);
      expect(ttl).toBeLessThanOrEqual(2 * 3600_000);
      expect(v.qrCode.svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
      const rows = (await ds.query(
        'SELECT token_hash, language, used_at FROM verification.case_upload_tokens WHERE case_id = $1 ORDER BY created_at',
        [c.id],
      )) as { token_hash: string; language: string | null; used_at: Date | null }[];
      expect(rows.map((r) => r.token_hash)).toEqual([
        hashUploadToken(c.token),
        hashUploadToken(tokenOf(v.url)),
      ]);
      expect(rows.map((r) => r.language)).toEqual([null, 'kk']);
      expect(JSON.stringify(rows)).not.toContain('vup_');
    });

    it("has a QR code that decodes (zbarimg) to the link's URL", async () => {
      const c = await newCase();
      const v = (await link(c.id)).body.value;
      const png = Buffer.from(v.qrCode.pngBase64, 'base64');
      expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      const dir = mkdtempSync(join(tmpdir(), 'portal-qr-'));
      try {
        writeFileSync(join(dir, 'qr.png'), png);
        const decoded = execFileSync('/usr/bin/zbarimg', ['--quiet', '--raw', join(dir, 'qr.png')], {
          encoding: 'utf8',
        }).trim();
        expect(decoded).toBe(v.url);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('refuses a JSON body sent as text/plain with 415, instead of issuing the 72 h default', async () => {
      const c = await newCase();
      const res = await fetch(`${base}/api/v1/verification-cases/${c.id}/upload-link`, {
        method: 'POST',
        headers: { ...auth(), 'Content-Type': 'text/plain' },
        body: JSON.stringify({ expiresInHours: 1 }),
      });
      const body = (await res.json()) as Env<{ reason?: string }>;
      expect([res.status, body.value.reason]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
      const rows = (await ds.query(
        'SELECT count(*)::int AS n FROM verification.case_upload_tokens WHERE case_id = $1',
        [c.id],
      )) as { n: number }[];
      expect(rows[0].n).toBe(1);
    });

    it('validates the body, hides other organizations, and refuses a case that takes no documents', async () => {
      const c = await newCase();
      expect((await link(c.id, { expiresInHours: 0 })).status).toBe(400);
      expect((await link(c.id, { expiresInHours: 721 })).status).toBe(400);
      expect((await link(c.id, { language: 'fr' })).status).toBe(400);
      const other = await link(c.id, undefined, keyB, 'org-b');
      expect([other.status, other.body.value.reason]).toEqual([404, 'CASE_NOT_FOUND']);
      expect((await link('not-a-uuid')).status).toBe(404);
      const cancel = await request(`${base}/api/v1/verification-cases/${c.id}/cancel`, {
        method: 'POST',
        headers: auth(),
      });
      expect(cancel.status).toBe(200);
      const refused = await link(c.id, undefined, keyA, 'org-a');
      expect([refused.status, refused.body.value.reason]).toEqual([409, 'UPLOAD_LINK_NOT_ALLOWED']);
    });
  });

  describe('GET /portal/v1/upload/{token}', () => {
    it.each(Object.entries(TITLES))('shows the page in %s with ?lang=', async (lang, title) => {
      const c = await newCase();
      const res = await page(c.token, `?lang=${lang}`);
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain(`<html lang="${lang}">`);
      expect(html).toContain(`<h1>${title}</h1>`);
      expect(res.headers.get('content-language')).toBe(lang);
    });

    it('serves a self-contained page: no-store, no-referrer, a nonce CSP that its script and style carry', async () => {
      const c = await newCase();
      const res = await page(c.token);
      const html = await res.text();
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      const csp = res.headers.get('content-security-policy') ?? '';
      const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
      expect(nonce).toBeTruthy();
      expect(csp).toContain("default-src 'none'");
      expect(html).toContain(`<script nonce="${nonce}">`);
      expect(html).toContain(`<style nonce="${nonce}">`);
      expect(html).not.toMatch(/<script(?![^>]*(nonce=|type="application\/json"))/);
      expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
      expect(html).toContain('accept="image/*,application/pdf" capture=');
      for (const kind of ['Passport', 'IdCard', 'DriverLicense', 'ResidencePermit', 'Selfie'])
        expect(html).toContain(`<option value="${kind}">`);
      expect(html).not.toContain('<option value="CompanyRegistration">');
      // Another request, another nonce.
      const again = (await page(c.token)).headers.get('content-security-policy');
      expect(again).not.toBe(csp);
    });

    it('offers a business the company registration and a selfie', async () => {
      const c = await newCase('Business');
      const html = await (await page(c.token)).text();
      expect(html).toContain('<option value="CompanyRegistration">');
      expect(html).toContain('<option value="Selfie">');
      expect(html).not.toContain('<option value="Passport">');
    });

    it("picks the language: ?lang=, then the link's language, then Accept-Language, then English", async () => {
      const c = await newCase();
      const kk = tokenOf((await link(c.id, { language: 'kk' })).body.value.url);
      const lang = async (token: string, q = '', al?: string) =>
        (await page(token, q, al ? { 'Accept-Language': al } : {})).headers.get('content-language');
      expect(await lang(kk, '?lang=tr', 'ru')).toBe('tr');
      expect(await lang(kk, '', 'ru')).toBe('kk');
      expect(await lang(kk, '?lang=xx', 'ru')).toBe('kk');
      expect(await lang(c.token, '', 'es-MX,es;q=0.9')).toBe('es');
      expect(await lang(c.token, '', 'de')).toBe('en');
      const html = await (await page(c.token, '?lang=uz')).text();
      for (const l of ['en', 'ru', 'kk', 'uz', 'tr', 'es']) expect(html).toContain(`href="?lang=${l}"`);
    });

    it('answers an unknown token 404 with a page that says nothing about any case', async () => {
      const c = await newCase();
      for (const token of [`vup_${'A'.repeat(43)}`, 'nonsense', c.token.slice(0, -1)]) {
        const res = await page(token, '?lang=ru');
        expect(res.status).toBe(404);
        const html = await res.text();
        expect(html).toContain('Эта ссылка недействительна');
        expect(html).not.toContain('P-');
        expect(html).not.toContain('<select');
        expect(res.headers.get('cache-control')).toBe('no-store');
      }
      // A client that does not ask for HTML gets the envelope.
      const json = await request<Env<{ reason: string }>>(`${base}/portal/v1/upload/vup_${'A'.repeat(43)}`);
      expect([json.status, json.body.value.reason]).toEqual([404, 'PORTAL_LINK_NOT_FOUND']);
    });

    it('answers an expired link 410 with the expired page, and refuses its calls', async () => {
      const c = await newCase();
      await ds.query(
        `UPDATE verification.case_upload_tokens SET expires_at = now() - interval '1 minute' WHERE token_hash = $1`,
        [hashUploadToken(c.token)],
      );
      const res = await page(c.token, '?lang=es');
      expect(res.status).toBe(410);
      expect(await res.text()).toContain('Este enlace ha caducado');
      const up = await upload(c.token, 'Passport');
      expect([up.status, up.body.value.reason]).toEqual([410, 'PORTAL_LINK_EXPIRED']);
      const fin = await finish(c.token);
      expect([fin.status, fin.body.value.reason]).toEqual([410, 'PORTAL_LINK_EXPIRED']);
      expect(await documentsOf(c.id)).toBe(0);
    });

    it('answers the link of a cancelled case 410 "no longer accepted"', async () => {
      const c = await newCase();
      await request(`${base}/api/v1/verification-cases/${c.id}/cancel`, { method: 'POST', headers: auth() });
      const res = await page(c.token, '?lang=tr');
      expect(res.status).toBe(410);
      expect(await res.text()).toContain('Artık belge kabul edilmiyor');
      const up = await upload(c.token, 'Passport');
      expect([up.status, up.body.value.reason]).toEqual([410, 'PORTAL_CASE_CLOSED']);
    });
  });

  describe('upload and finish', () => {
    it('stores an upload as a document of the case and moves the case to DocumentsReceived', async () => {
      const c = await newCase();
      expect(await statusOf(c.id)).toBe('AwaitingApplicant');
      const res = await upload(c.token, 'Passport', PNG, 'image/png', 'паспорт.png');
      expect(res.status).toBe(201);
      expect(res.body.value).toMatchObject({
        kind: 'Passport',
        fileName: 'паспорт.png',
        sizeBytes: PNG.length,
      });
      expect(await statusOf(c.id)).toBe('DocumentsReceived');
      expect(await documentsOf(c.id)).toBe(1);
      // A second file is fine: the link is used up only by Finish.
      expect((await upload(c.token, 'Selfie')).status).toBe(201);
      expect(await documentsOf(c.id)).toBe(2);
      // What was uploaded is listed on the page.
      const html = await (await page(c.token, '?lang=en')).text();
      expect(html).toContain('Passport: паспорт.png');
    });

    it('refuses kinds the case does not take, bad names, empty files and JSON bodies', async () => {
      const c = await newCase('Business');
      const wrongKind = await upload(c.token, 'Passport');
      expect([wrongKind.status, wrongKind.body.value.reason]).toEqual([400, 'PORTAL_DOCUMENT_KIND_INVALID']);
      const noKind = await upload(c.token, '');
      expect(noKind.body.value.reason).toBe('PORTAL_DOCUMENT_KIND_INVALID');
      const badName = await request<Env<{ reason: string }>>(
        `${base}/portal/v1/upload/${c.token}/documents`,
        {
          method: 'POST',
          headers: { 'Content-Type': 'image/png', 'X-Document-Kind': 'Selfie', 'X-File-Name': '%E0%A4%A' },
          body: PNG as unknown as string,
        },
      );
      expect([badName.status, badName.body.value.reason]).toEqual([400, 'PORTAL_FILE_NAME_INVALID']);
      const json = await request<Env<{ reason: string }>>(`${base}/portal/v1/upload/${c.token}/documents`, {
        method: 'POST',
        headers: { 'X-Document-Kind': 'Selfie' },
        body: { a: 1 },
      });
      expect([json.status, json.body.value.reason]).toEqual([415, 'PORTAL_FILE_TYPE_NOT_ALLOWED']);
      const empty = await upload(c.token, 'Selfie', Buffer.alloc(0));
      expect([empty.status, empty.body.value.reason]).toEqual([400, 'PORTAL_FILE_EMPTY']);
      expect(await documentsOf(c.id)).toBe(0);
      expect(await statusOf(c.id)).toBe('AwaitingApplicant');
    });

    it("refuses an encoded body (Content-Encoding: gzip) by the signed upload URL's rule, storing nothing", async () => {
      const c = await newCase();
      for (const encoding of ['gzip', 'br', 'GZIP']) {
        const res = await fetch(`${base}/portal/v1/upload/${c.token}/documents`, {
          method: 'POST',
          headers: {
            'Content-Type': 'image/png',
            'X-Document-Kind': 'Passport',
            'Content-Encoding': encoding,
          },
          body: gzipSync(PNG),
        });
        const body = (await res.json()) as Env<{ reason?: string }>;
        expect([res.status, body.value.reason]).toEqual([415, 'DOCUMENT_CONTENT_ENCODING_NOT_ALLOWED']);
      }
      expect(await documentsOf(c.id)).toBe(0);
      const identity = await fetch(`${base}/portal/v1/upload/${c.token}/documents`, {
        method: 'POST',
        headers: {
          'Content-Type': 'image/png',
          'X-Document-Kind': 'Passport',
          'Content-Encoding': 'identity',
        },
        body: PNG,
      });
      expect(identity.status).toBe(201);
    });

    it("takes files up to the documents area's DOCUMENT_MAX_BYTES: one byte over answers its DOCUMENT_TOO_LARGE", async () => {
      const limit = 20 * 1024 * 1024; // DOCUMENT_MAX_BYTES's default: the one setting of both areas
      const c = await newCase();
      const html = await (await page(c.token, '?lang=en')).text();
      expect(html).toContain('JPEG, PNG or PDF, up to 20 MB.');
      const fileOf = (size: number) => Buffer.concat([PNG, Buffer.alloc(size - PNG.length)]);

      // Declared by Content-Length: refused before the body is read.
      const over = await upload(c.token, 'Passport', fileOf(limit + 1));
      expect([over.status, over.body.value.reason]).toEqual([413, 'DOCUMENT_TOO_LARGE']);
      expect(over.body.error).toContain(String(limit));
      // Streamed without a length: refused as the count passes the limit.
      const chunk = Buffer.alloc(1024 * 1024);
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(ctl) {
          if (sent > limit) return ctl.close();
          const part = sent === 0 ? fileOf(chunk.length) : chunk;
          sent += part.length;
          ctl.enqueue(new Uint8Array(part));
        },
      });
      const streamed = await fetch(`${base}/portal/v1/upload/${c.token}/documents`, {
        method: 'POST',
        headers: { 'Content-Type': 'image/png', 'X-Document-Kind': 'Passport' },
        body: stream,
        duplex: 'half',
      } as RequestInit);
      const streamedBody = (await streamed.json()) as Env<{ reason: string }>;
      expect([streamed.status, streamedBody.value.reason]).toEqual([413, 'DOCUMENT_TOO_LARGE']);
      // Past the gateway's 25 MiB cap (where the portal had a limit and an error of its own): the same.
      const pastGateway = await upload(c.token, 'Passport', fileOf(25 * 1024 * 1024 + 1));
      expect([pastGateway.status, pastGateway.body.value.reason]).toEqual([413, 'DOCUMENT_TOO_LARGE']);
      expect(await documentsOf(c.id)).toBe(0);
      expect(await statusOf(c.id)).toBe('AwaitingApplicant');

      // Exactly the limit is taken.
      const atLimit = await upload(c.token, 'Passport', fileOf(limit));
      expect([atLimit.status, atLimit.body.value.sizeBytes]).toEqual([201, limit]);
      expect(await documentsOf(c.id)).toBe(1);
    });

    it("a token uploads only to its own case, whoever's case id is around", async () => {
      const a = await newCase();
      const b = await newCase('Individual', keyB, 'org-b');
      expect((await upload(a.token, 'Passport')).status).toBe(201);
      expect(await documentsOf(a.id)).toBe(1);
      expect(await documentsOf(b.id)).toBe(0);
      expect(await statusOf(b.id)).toBe('AwaitingApplicant');
      // The case id is no part of the portal's paths: a path naming B's case is no route at all.
      const probe = await fetch(`${base}/portal/v1/upload/${a.token}/documents/${b.id}`, {
        method: 'POST',
        headers: { 'Content-Type': 'image/png', 'X-Document-Kind': 'Passport' },
        body: PNG,
      });
      expect(probe.status).toBe(404);
      expect(await documentsOf(b.id)).toBe(0);
    });

    it('finish needs a document, then uses up every link of the case: used pages answer 410', async () => {
      const c = await newCase();
      const second = tokenOf((await link(c.id)).body.value.url);
      const early = await finish(c.token, { 'Accept-Language': 'ru' });
      expect([early.status, early.body.value.reason]).toEqual([409, 'PORTAL_NOTHING_UPLOADED']);
      expect(early.body.error).toBe('Загрузите хотя бы один документ, прежде чем завершить.');
      expect((await upload(c.token, 'IdCard')).status).toBe(201);
      const done = await finish(c.token);
      expect(done.status).toBe(200);
      expect(Date.parse(done.body.value.finishedAt ?? '')).not.toBeNaN();
      expect(done.headers.get('cache-control')).toBe('no-store');
      const used = (await ds.query(
        'SELECT count(*)::int AS n FROM verification.case_upload_tokens WHERE case_id = $1 AND used_at IS NULL',
        [c.id],
      )) as { n: number }[];
      expect(used[0].n).toBe(0);
      for (const token of [c.token, second]) {
        const res = await page(token, '?lang=kk');
        expect(res.status).toBe(410);
        expect(await res.text()).toContain('Бұл сілтеме бұрын пайдаланылған');
        const up = await upload(token, 'Passport');
        expect([up.status, up.body.value.reason]).toEqual([410, 'PORTAL_LINK_USED']);
      }
      const again = await finish(c.token);
      expect([again.status, again.body.value.reason]).toEqual([410, 'PORTAL_LINK_USED']);
      // A link issued after Finish works again (more documents needed).
      const fresh = await link(c.id);
      expect(fresh.status).toBe(201);
      expect((await page(tokenOf(fresh.body.value.url))).status).toBe(200);
    });

    it('answers unknown tokens 404 on both calls', async () => {
      const up = await upload(`vup_${'B'.repeat(43)}`, 'Passport');
      expect([up.status, up.body.value.reason]).toEqual([404, 'PORTAL_LINK_NOT_FOUND']);
      const fin = await finish('vup_short');
      expect([fin.status, fin.body.value.reason]).toEqual([404, 'PORTAL_LINK_NOT_FOUND']);
    });
  });
});
