import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { TenancyAdminService, asOrganizationId } from '@platform/tenancy';
import { createTestDatabase, listen, request, serviceEnv } from '@platform/testing';
import { createVerificationApp } from '../../src/bootstrap';
import { DocumentsService } from '../../src/documents/documents.service';
import { signUpload } from '../../src/documents/upload-signature';

type Env<T = unknown> = { success: boolean; code: number; error: string | null; value: T };
type Signed = {
  documentId: string;
  uploadUrl: string;
  method: string;
  headers: Record<string, string>;
  expiresAt: string;
  maxBytes: number;
  reason?: string;
};
type Doc = {
  id: string;
  caseId: string;
  kind: string;
  source: string;
  status: string;
  fileName: string | null;
  declaredContentType: string;
  sizeBytes: number | null;
  sha256: string | null;
  uploadedAt: string | null;
  statusHistory?: { fromStatus: string | null; toStatus: string; reason: string | null }[];
  reason?: string;
};

const SECRET = 'documents-int-spec-signing-secret-0123456789';
const MAX = 64 * 1024;
/** A JPEG's first bytes, then filler: the service does not sniff (the checks do). */
const jpeg = (n: number, fill = 7) =>
  Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(n - 4, fill)]);
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('verification documents: signed upload URLs, storage, reads (real PostgreSQL, real HTTP)', () => {
  let app: INestApplication;
  let base: string;
  let ds: DataSource;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let dir: string;
  let keyA: string;
  let keyB: string;
  let readOnly: string;
  let n = 0;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'verification-documents-int-'));
    db = await createTestDatabase('verification_documents');
    app = await createVerificationApp(
      {
        ...serviceEnv(db.url),
        APPLICANT_PORTAL_URL: 'https://verify.example.com',
        VERIFICATION_STORAGE_DIR: dir,
        DOCUMENT_UPLOAD_SIGNING_SECRET: SECRET,
        DOCUMENT_MAX_BYTES: String(MAX),
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
    readOnly = (await admin.issueKey('org-a', 'ro', { scopes: ['documents:read'] })).token;
    // A webhook endpoint of org-a: deliveries are made per subscription, so events become rows.
    await ds.query(
      `INSERT INTO verification.webhook_subscriptions (id, tenant_id, url, event_types, secret_ciphertext)
       VALUES (gen_random_uuid(), 'org-a', 'https://hooks.example.com/a', '{}', 'unused')`,
    );
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  const auth = (key = keyA, org = 'org-a') => ({ 'X-API-Key': key, 'Service-Organization-Id': org });
  const newCase = async (key = keyA, org = 'org-a') => {
    const res = await request<Env<{ id: string }>>(`${base}/api/v1/verification-cases`, {
      method: 'POST',
      headers: { ...auth(key, org), 'Idempotency-Key': `doc-case-${++n}` },
      body: {
        externalReferenceId: `DOC-${n}`,
        applicantType: 'Individual',
        applicantCountryCode: 'KZ',
        reportCountryCode: 'KZ',
      },
    });
    expect(res.status).toBe(201);
    return res.body.value.id;
  };
  const sign = (caseId: string, body: Record<string, unknown>, key = keyA, org = 'org-a') =>
    request<Env<Signed>>(`${base}/api/v1/verification-cases/${caseId}/documents/signed-upload-url`, {
      method: 'POST',
      headers: auth(key, org),
      body,
    });
  /** The issued URL is on the public origin (the gateway); the test talks to the app directly. */
  const local = (url: string) => url.replace('https://verify.example.com', base);
  const put = async (
    url: string,
    body: Buffer | ReadableStream<Uint8Array>,
    headers: Record<string, string>,
  ) => {
    const res = await fetch(local(url), {
      method: 'PUT',
      headers,
      body,
      ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
    } as RequestInit);
    const text = await res.text();
    return { status: res.status, body: JSON.parse(text) as Env<Doc> };
  };
  const get = <T>(path: string, key = keyA, org = 'org-a') =>
    request<Env<T>>(`${base}/api/v1/verification-cases/${path}`, { headers: auth(key, org) });
  const events = async (documentId: string) =>
    (
      await ds.query(
        `SELECT event_type, payload FROM verification.webhook_deliveries
          WHERE tenant_id = 'org-a' AND payload->>'documentId' = $1 ORDER BY created_at, event_type`,
        [documentId],
      )
    ).map((r: { event_type: string; payload: Record<string, unknown> }) => ({
      type: r.event_type,
      ...r.payload,
    }));

  it('issues a signed URL, takes the PUT once, stores the bytes and reads them back', async () => {
    const caseId = await newCase();
    const issued = await sign(caseId, {
      kind: 'Passport',
      fileName: 'passport.jpg',
      contentType: 'image/JPEG',
    });
    expect(issued.status).toBe(201);
    const s = issued.body.value;
    expect(s).toEqual({
      documentId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      uploadUrl: expect.stringMatching(
        new RegExp(
          `^https://verify\\.example\\.com/api/v1/document-uploads/${s.documentId}\\?expires=\\d+&signature=[0-9a-f]{64}$`,
        ),
      ),
      method: 'PUT',
      headers: { 'Content-Type': 'image/jpeg' },
      expiresAt: expect.any(String),
      maxBytes: MAX,
    });
    const ttl = Date.parse(s.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(890_000);
    expect(ttl).toBeLessThanOrEqual(900_000);
    const before = await get<Doc>(`${caseId}/documents/${s.documentId}`);
    expect([before.body.value.status, before.body.value.sizeBytes, before.body.value.sha256]).toEqual([
      'AwaitingUpload',
      null,
      null,
    ]);

    const bytes = jpeg(5000);
    const up = await put(s.uploadUrl, bytes, { 'Content-Type': 'image/jpeg' });
    expect(up.status).toBe(200);
    expect(up.body.value).toMatchObject({
      id: s.documentId,
      caseId,
      kind: 'Passport',
      source: 'api',
      status: 'Uploaded',
      fileName: 'passport.jpg',
      declaredContentType: 'image/jpeg',
      sizeBytes: 5000,
      sha256: sha(bytes),
    });

    const meta = await get<Doc>(`${caseId}/documents/${s.documentId}`);
    expect(meta.status).toBe(200);
    expect(meta.body.value.statusHistory).toEqual([
      { fromStatus: null, toStatus: 'AwaitingUpload', reason: null, changedAt: expect.any(String) },
      { fromStatus: 'AwaitingUpload', toStatus: 'Uploaded', reason: null, changedAt: expect.any(String) },
    ]);
    const listed = await get<{ items: Doc[]; total: number }>(`${caseId}/documents`);
    expect(listed.body.value.total).toBe(1);
    expect(listed.body.value.items[0]).not.toHaveProperty('storageKey');

    const content = await fetch(
      `${base}/api/v1/verification-cases/${caseId}/documents/${s.documentId}/content`,
      {
        headers: auth(),
      },
    );
    expect(content.status).toBe(200);
    expect(content.headers.get('content-type')).toBe('image/jpeg');
    expect(content.headers.get('content-disposition')).toMatch(/^attachment; filename="passport\.jpg"/);
    expect(content.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await content.arrayBuffer())).toEqual(bytes);
    expect((await app.get(DocumentsService).read(asOrganizationId('org-a'), s.documentId)).body).toEqual(
      bytes,
    );

    // The case moved, with its history; and the three document events reached the webhook deliveries.
    const c = await get<{ status: string }>(caseId);
    expect(c.body.value.status).toBe('DocumentsReceived');
    const history = await get<{ items: { fromStatus: string | null; toStatus: string }[] }>(
      `${caseId}/history`,
    );
    expect(history.body.value.items.map((h) => h.toStatus)).toEqual([
      'AwaitingApplicant',
      'DocumentsReceived',
    ]);
    expect(await events(s.documentId)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          type: 'document.status_changed',
          fromStatus: null,
          toStatus: 'AwaitingUpload',
        }),
        expect.objectContaining({
          type: 'document.status_changed',
          fromStatus: 'AwaitingUpload',
          toStatus: 'Uploaded',
        }),
        expect.objectContaining({
          type: 'document.uploaded',
          caseId,
          kind: 'Passport',
          source: 'api',
          contentType: 'image/jpeg',
          sizeBytes: 5000,
          sha256: sha(bytes),
        }),
      ]),
    );
    expect((await events(s.documentId)).length).toBe(3);
    const caseEvents = await ds.query(
      `SELECT payload FROM verification.webhook_deliveries WHERE event_type = 'case.status_changed' AND payload->>'caseId' = $1`,
      [caseId],
    );
    expect(caseEvents.map((r: { payload: { toStatus: string } }) => r.payload.toStatus).sort()).toEqual([
      'AwaitingApplicant',
      'DocumentsReceived',
    ]);

    // Single use: the same URL again is 409, and the stored bytes are unchanged.
    const again = await put(s.uploadUrl, jpeg(100, 9), { 'Content-Type': 'image/jpeg' });
    expect([again.status, again.body.value.reason]).toEqual([409, 'DOCUMENT_ALREADY_UPLOADED']);
    expect(await readFile(join(dir, 'org-a', caseId, s.documentId))).toEqual(bytes);
  });

  it('derives the storage key itself: a path in the file name is only a label', async () => {
    const caseId = await newCase();
    const s = (
      await sign(caseId, {
        kind: 'IdCard',
        fileName: '../../org-b/x/../../../etc/passwd',
        contentType: 'application/pdf',
      })
    ).body.value;
    const up = await put(s.uploadUrl, Buffer.from('%PDF-1.7\n...'), { 'Content-Type': 'application/pdf' });
    expect(up.status).toBe(200);
    expect(up.body.value.fileName).toBe('passwd');
    const [row] = await ds.query('SELECT storage_key FROM verification.documents WHERE id = $1', [
      s.documentId,
    ]);
    expect(row.storage_key).toBe(`org-a/${caseId}/${s.documentId}`);
    expect((await readdir(dir)).sort()).toEqual(['org-a']);
    expect(await readdir(join(dir, 'org-a', caseId))).toEqual([s.documentId]);
  });

  it('refuses a tampered signature or expiry, an unknown document, and an expired URL with 403', async () => {
    const caseId = await newCase();
    const s = (await sign(caseId, { kind: 'Selfie', contentType: 'image/png' })).body.value;
    const url = new URL(s.uploadUrl);
    const sig = url.searchParams.get('signature') ?? '';
    const expires = Number(url.searchParams.get('expires'));
    const body = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
    const tampered = new URL(url);
    tampered.searchParams.set('signature', (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1));
    const later = new URL(url);
    later.searchParams.set('expires', String(expires + 3600));
    const other = new URL(url);
    other.pathname = '/api/v1/document-uploads/3f6c1a9e-2b7d-4c8e-9f01-5a6b7c8d9e0f';
    const noSig = new URL(url);
    noSig.searchParams.delete('signature');
    for (const u of [tampered, later, other, noSig]) {
      const res = await put(u.toString(), body, { 'Content-Type': 'image/png' });
      expect([res.status, res.body.value.reason]).toEqual([403, 'DOCUMENT_UPLOAD_SIGNATURE_INVALID']);
    }
    // Correctly signed, but past its expiry.
    const past = Math.floor(Date.now() / 1000) - 5;
    const expired = new URL(url);
    expired.searchParams.set('expires', String(past));
    expired.searchParams.set(
      'signature',
      signUpload(SECRET, {
        method: 'PUT',
        documentId: s.documentId,
        expires: past,
        contentType: 'image/png',
      }),
    );
    const res = await put(expired.toString(), body, { 'Content-Type': 'image/png', 'Accept-Language': 'ru' });
    expect([res.status, res.body.value.reason]).toEqual([403, 'DOCUMENT_UPLOAD_URL_EXPIRED']);
    expect(res.body.error).toBe('Срок действия подписанной ссылки для загрузки истёк; запросите новую.');
    // Nothing of these reached the document.
    expect((await get<Doc>(`${caseId}/documents/${s.documentId}`)).body.value.status).toBe('AwaitingUpload');
  });

  it('holds the upload to the signed Content-Type, no encoding, a body, and the size limit (413)', async () => {
    const caseId = await newCase();
    const s = (await sign(caseId, { kind: 'Passport', contentType: 'image/jpeg', sizeBytes: 1000 })).body
      .value;
    const wrong = await put(s.uploadUrl, jpeg(100), { 'Content-Type': 'image/png' });
    expect([wrong.status, wrong.body.value.reason]).toEqual([403, 'DOCUMENT_UPLOAD_CONTENT_TYPE_MISMATCH']);
    const json = await put(s.uploadUrl, Buffer.from('{"a":1}'), { 'Content-Type': 'application/json' });
    expect([json.status, json.body.value.reason]).toEqual([403, 'DOCUMENT_UPLOAD_CONTENT_TYPE_MISMATCH']);
    const gz = await put(s.uploadUrl, jpeg(100), {
      'Content-Type': 'image/jpeg',
      'Content-Encoding': 'gzip',
    });
    expect([gz.status, gz.body.value.reason]).toEqual([415, 'DOCUMENT_CONTENT_ENCODING_NOT_ALLOWED']);
    const empty = await put(s.uploadUrl, Buffer.alloc(0), { 'Content-Type': 'image/jpeg' });
    expect([empty.status, empty.body.value.reason]).toEqual([400, 'DOCUMENT_EMPTY']);
    const big = await put(s.uploadUrl, jpeg(MAX + 1), { 'Content-Type': 'image/jpeg' });
    expect([big.status, big.body.value.reason]).toEqual([413, 'DOCUMENT_TOO_LARGE']);
    // Chunked, no Content-Length: counted as it streams and cut off at the limit.
    const chunk = new Uint8Array(16 * 1024).fill(1);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(ctl) {
        if (sent >= MAX * 3) return ctl.close();
        sent += chunk.length;
        ctl.enqueue(chunk);
      },
    });
    const chunked = await put(s.uploadUrl, stream, { 'Content-Type': 'image/jpeg' });
    expect([chunked.status, chunked.body.value.reason]).toEqual([413, 'DOCUMENT_TOO_LARGE']);
    // Still usable: none of these consumed it.
    const ok = await put(s.uploadUrl, jpeg(MAX), { 'Content-Type': 'image/jpeg' });
    expect([ok.status, ok.body.value.sizeBytes]).toEqual([200, MAX]);
  });

  it('refuses unsupported types, announced oversize, bad kinds and closed cases when issuing', async () => {
    const caseId = await newCase();
    const html = await sign(caseId, { kind: 'Passport', contentType: 'text/html' });
    expect([html.status, html.body.value.reason]).toEqual([415, 'DOCUMENT_CONTENT_TYPE_NOT_ALLOWED']);
    const big = await sign(caseId, { kind: 'Passport', contentType: 'image/jpeg', sizeBytes: MAX + 1 });
    expect([big.status, big.body.value.reason]).toEqual([413, 'DOCUMENT_TOO_LARGE']);
    const kind = await sign(caseId, { kind: 'Banana', contentType: 'image/jpeg' });
    expect(kind.status).toBe(400);
    const ro = await sign(caseId, { kind: 'Passport', contentType: 'image/jpeg' }, readOnly);
    expect([ro.status, ro.body.value.reason]).toEqual([403, 'SCOPE_MISSING']);

    // A URL issued before the case was cancelled no longer lands.
    const s = (await sign(caseId, { kind: 'Passport', contentType: 'image/jpeg' })).body.value;
    const cancelled = await request(`${base}/api/v1/verification-cases/${caseId}/cancel`, {
      method: 'POST',
      headers: auth(),
    });
    expect(cancelled.status).toBe(200);
    const late = await put(s.uploadUrl, jpeg(100), { 'Content-Type': 'image/jpeg' });
    expect([late.status, late.body.value.reason]).toEqual([409, 'DOCUMENT_CASE_NOT_ACCEPTING']);
    const closed = await sign(caseId, { kind: 'Passport', contentType: 'image/jpeg' });
    expect([closed.status, closed.body.value.reason]).toEqual([409, 'DOCUMENT_CASE_NOT_ACCEPTING']);
  });

  it("answers 404 for another organization's case or document, exactly like unknown ids", async () => {
    const caseA = await newCase();
    const caseB = await newCase(keyB, 'org-b');
    const s = (await sign(caseA, { kind: 'Passport', contentType: 'image/jpeg' })).body.value;
    await put(s.uploadUrl, jpeg(100), { 'Content-Type': 'image/jpeg' });
    const probes = [
      await sign(caseA, { kind: 'Passport', contentType: 'image/jpeg' }, keyB, 'org-b'),
      await get(`${caseA}/documents`, keyB, 'org-b'),
      await get(`${caseA}/documents/${s.documentId}`, keyB, 'org-b'),
      await get(`${caseA}/documents/${s.documentId}/content`, keyB, 'org-b'),
    ];
    for (const p of probes)
      expect([p.status, (p.body.value as { reason: string }).reason]).toEqual([404, 'CASE_NOT_FOUND']);
    for (const path of [`${caseB}/documents/${s.documentId}`, `${caseB}/documents/${s.documentId}/content`]) {
      const p = await get<{ reason: string }>(path, keyB, 'org-b');
      expect([p.status, p.body.value.reason]).toEqual([404, 'DOCUMENT_NOT_FOUND']);
    }
    const unknown = await get<{ reason: string }>(`${caseA}/documents/3f6c1a9e-2b7d-4c8e-9f01-5a6b7c8d9e0f`);
    expect([unknown.status, unknown.body.value.reason]).toEqual([404, 'DOCUMENT_NOT_FOUND']);
    const notUuid = await get<{ reason: string }>(`${caseA}/documents/nope`);
    expect([notUuid.status, notUuid.body.value.reason]).toEqual([404, 'DOCUMENT_NOT_FOUND']);
    await expect(
      app.get(DocumentsService).read(asOrganizationId('org-b'), s.documentId),
    ).rejects.toMatchObject({
      reason: 'DOCUMENT_NOT_FOUND',
    });
  });

  it('expires unused URLs in a sweep (SKIP LOCKED), after which the URL answers 409', async () => {
    const caseId = await newCase();
    const s = (await sign(caseId, { kind: 'Passport', contentType: 'image/jpeg' })).body.value;
    const waiting = (await sign(caseId, { kind: 'Selfie', contentType: 'image/jpeg' })).body.value;
    await ds.query(
      `UPDATE verification.documents SET upload_expires_at = now() - interval '1 minute' WHERE id = $1`,
      [s.documentId],
    );
    const docs = app.get(DocumentsService);
    expect(await docs.expireLapsedUploads()).toBe(1);
    expect(await docs.expireLapsedUploads()).toBe(0);
    const meta = (await get<Doc>(`${caseId}/documents/${s.documentId}`)).body.value;
    expect(meta.status).toBe('Expired');
    expect(meta.statusHistory?.at(-1)).toMatchObject({
      fromStatus: 'AwaitingUpload',
      toStatus: 'Expired',
      reason: 'UPLOAD_URL_EXPIRED',
    });
    expect((await get<Doc>(`${caseId}/documents/${waiting.documentId}`)).body.value.status).toBe(
      'AwaitingUpload',
    );
    const late = await put(s.uploadUrl, jpeg(100), { 'Content-Type': 'image/jpeg' });
    expect([late.status, late.body.value.reason]).toEqual([409, 'DOCUMENT_ALREADY_UPLOADED']);
    const content = await get<{ reason: string }>(`${caseId}/documents/${s.documentId}/content`);
    expect([content.status, content.body.value.reason]).toEqual([409, 'DOCUMENT_CONTENT_NOT_AVAILABLE']);
  });

  it('receives portal uploads on the same path, and hands documents to the orchestrator under a lease', async () => {
    const caseId = await newCase();
    const docs = app.get(DocumentsService);
    const org = asOrganizationId('org-a');
    const body = jpeg(300, 3);
    const first = await docs.receive({
      organizationId: org,
      caseId,
      kind: 'Selfie',
      source: 'applicant',
      fileName: 'C:\\Users\\me\\selfie.jpg',
      declaredContentType: 'image/jpg',
      body,
    });
    expect(first).toMatchObject({
      status: 'Uploaded',
      source: 'applicant',
      fileName: 'selfie.jpg',
      sha256: sha(body),
    });
    await docs.receive({
      organizationId: org,
      caseId,
      kind: 'Passport',
      source: 'applicant',
      fileName: null,
      declaredContentType: 'application/pdf',
      body: Buffer.from('%PDF-1.4'),
    });
    await expect(
      docs.receive({
        organizationId: org,
        caseId,
        kind: 'Passport',
        source: 'applicant',
        fileName: 'x.svg',
        declaredContentType: 'image/svg+xml',
        body: Buffer.from('<svg/>'),
      }),
    ).rejects.toMatchObject({ reason: 'DOCUMENT_CONTENT_TYPE_NOT_ALLOWED', status: 415 });
    const history = await get<{ items: { toStatus: string }[] }>(`${caseId}/history`);
    expect(history.body.value.items.map((h) => h.toStatus)).toEqual([
      'AwaitingApplicant',
      'DocumentsReceived',
    ]);

    // Claimed once (SKIP LOCKED, across organizations), then reclaimed when the lease lapsed.
    const claimed = await docs.claimForProcessing(100, 60_000, 3);
    const mine = claimed.filter((c) => c.doc.caseId === caseId);
    expect(mine.map((c) => [c.organizationId, c.doc.status, c.doc.processingAttempts])).toEqual([
      ['org-a', 'Processing', 1],
      ['org-a', 'Processing', 1],
    ]);
    expect((await docs.claimForProcessing(100, 60_000, 3)).filter((c) => c.doc.caseId === caseId)).toEqual(
      [],
    );
    await ds.query(
      `UPDATE verification.documents SET lease_until = now() - interval '1 second' WHERE id = $1`,
      [first.id],
    );
    const again = (await docs.claimForProcessing(100, 60_000, 3)).filter((c) => c.doc.caseId === caseId);
    expect(again.map((c) => [c.doc.id, c.doc.processingAttempts])).toEqual([[first.id, 2]]);
    const meta = (await get<Doc>(`${caseId}/documents/${first.id}`)).body.value;
    expect(meta.statusHistory?.map((h) => [h.fromStatus, h.toStatus, h.reason])).toEqual([
      [null, 'Uploaded', null],
      ['Uploaded', 'Processing', null],
      ['Processing', 'Uploaded', 'LEASE_LAPSED'],
      ['Uploaded', 'Processing', null],
    ]);

    // A lapsed run after the last allowed attempt is rejected, not claimed again.
    await ds.query(
      `UPDATE verification.documents SET lease_until = now() - interval '1 second', processing_attempts = 3 WHERE id = $1`,
      [first.id],
    );
    expect((await docs.claimForProcessing(100, 60_000, 3)).filter((c) => c.doc.caseId === caseId)).toEqual(
      [],
    );
    const exhausted = (await get<Doc>(`${caseId}/documents/${first.id}`)).body.value;
    expect([exhausted.status, exhausted.statusHistory?.at(-1)?.reason]).toEqual([
      'Rejected',
      'PROCESSING_ATTEMPTS_EXHAUSTED',
    ]);
  });
});
