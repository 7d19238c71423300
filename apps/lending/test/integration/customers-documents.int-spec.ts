import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { withClient } from '@platform/testing';
import { startLending, type Env, type LendingFixture } from './lending-fixture';

type Doc = {
  id: string;
  customerId: string;
  type: string;
  status: string;
  statusName: string;
  fileName: string;
  contentType: string;
  sizeBytes: number;
  sha256: string;
  /** On CUSTOMER_DOCUMENT_TOO_LARGE. */
  maxBytes?: number;
};
type Page<T> = { items: T[]; total: number };

const MAX = 64 * 1024;
const pdf = (size: number) => Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(size - 9)]);
const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('lending customers: documents (real PostgreSQL, local disk storage)', () => {
  let s: LendingFixture;
  let dir: string;
  let a: Record<string, string>;
  let customerId: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lending-documents-'));
    s = await startLending('lending_customer_documents', {
      LENDING_DOCUMENTS_DIR: dir,
      LENDING_DOCUMENT_MAX_BYTES: String(MAX),
    });
    a = await s.organization('bank-a');
    const c = await s.call<{ id: string }>(a, 'POST', '/Customers/CreateCustomer', {
      kind: 'individual',
      individual: { firstName: 'Aigerim', lastName: 'Nurlanova' },
    });
    customerId = c.body.value.id;
  });

  afterAll(async () => {
    await s?.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** The raw bytes as the body, as a partner sends a file. */
  async function upload(
    body: Buffer | ReadableStream<Uint8Array>,
    query: Record<string, string> = {},
    contentType = 'application/octet-stream',
    lang = 'en',
  ): Promise<{ status: number; body: Env<Doc> }> {
    const q = new URLSearchParams({ CustomerId: customerId, Type: 'identity_document', ...query });
    const res = await fetch(`${s.base}/Customers/UploadDocument?${q}`, {
      method: 'POST',
      headers: { ...a, 'Content-Type': contentType, 'Language-Code': lang },
      body,
      duplex: 'half',
    } as RequestInit);
    return { status: res.status, body: (await res.json()) as Env<Doc> };
  }

  const download = (id: string, headers = a) =>
    fetch(`${s.base}/Customers/DownloadDocument?DocumentId=${id}`, { headers });

  it('round-trips a file: the same bytes, its SHA-256, its sniffed type and a safe disposition', async () => {
    const bytes = pdf(40_000);
    // Declared as an image: the bytes say PDF, and the bytes win.
    const up = await upload(bytes, { FileName: 'паспорт 2024.pdf' }, 'image/png', 'kk');
    expect(up.status).toBe(201);
    expect(up.body.value).toMatchObject({
      customerId,
      type: 'identity_document',
      status: 'uploaded',
      statusName: 'Жүктелді',
      fileName: 'паспорт 2024.pdf',
      contentType: 'application/pdf',
      sizeBytes: bytes.length,
      sha256: sha256(bytes),
    });
    const res = await download(up.body.value.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('etag')).toBe(`"${sha256(bytes)}"`);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="_______ 2024.pdf"; filename*=UTF-8''${encodeURIComponent('паспорт 2024.pdf')}`,
    );
    const back = Buffer.from(await res.arrayBuffer());
    expect(back.equals(bytes)).toBe(true);
    expect(sha256(back)).toBe(up.body.value.sha256);
  });

  it('stores under a key the server derives; a client name like ../../etc/passwd is only a display name', async () => {
    const bytes = Buffer.concat([PNG_HEAD, randomBytes(1000)]);
    const up = await upload(bytes, { FileName: '../../etc/passwd' });
    expect([up.status, up.body.value.fileName, up.body.value.contentType]).toEqual([
      201,
      'passwd',
      'image/png',
    ]);
    const key = await withClient(
      s.db.url,
      async (c) =>
        (
          await c.query(`SELECT storage_key FROM lending.customer_documents WHERE id = $1`, [
            up.body.value.id,
          ])
        ).rows[0].storage_key as string,
    );
    expect(key).toBe(`bank-a/${customerId}/${up.body.value.id}`);
    expect((await readFile(join(dir, key))).equals(bytes)).toBe(true);
    expect(existsSync(join(dirname(dir), 'etc'))).toBe(false);
    // Every file under the storage root is a document of this customer, named by its id.
    expect((await readdir(join(dir, 'bank-a', customerId))).sort()).toEqual((await documentIds()).sort());
    const res = await download(up.body.value.id);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="passwd"; filename*=UTF-8''passwd`,
    );
  });

  async function documentIds(): Promise<string[]> {
    const r = await s.call<Page<Doc>>(a, 'GET', `/Customers/GetDocuments?CustomerId=${customerId}&Count=500`);
    return r.body.value.items.map((d) => d.id);
  }

  it('refuses files over the limit: by Content-Length at once, and while a chunked body streams', async () => {
    const before = await documentIds();
    const big = await upload(pdf(MAX + 1), {}, 'application/pdf', 'ru');
    expect([big.status, big.body.value.reason, big.body.value.maxBytes]).toEqual([
      413,
      'CUSTOMER_DOCUMENT_TOO_LARGE',
      MAX,
    ]);
    expect(big.body.error).toBe(`Документ больше ${MAX} байт.`);
    const bytes = pdf(MAX + 5000);
    let sent = 0;
    const chunked = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= bytes.length) return controller.close();
        controller.enqueue(bytes.subarray(sent, sent + 4096));
        sent += 4096;
      },
    });
    const streamed = await upload(chunked);
    expect([streamed.status, streamed.body.value.reason]).toEqual([413, 'CUSTOMER_DOCUMENT_TOO_LARGE']);
    expect(await documentIds()).toEqual(before);
    expect((await readdir(join(dir, 'bank-a', customerId))).filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('refuses types other than PDF, JPEG and PNG by their bytes, an empty body and a JSON body', async () => {
    const exe = await upload(
      Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00'), randomBytes(500)]),
      {},
      'application/pdf',
      'es',
    );
    expect([exe.status, exe.body.value.reason]).toEqual([415, 'CUSTOMER_DOCUMENT_TYPE_NOT_ALLOWED']);
    expect(exe.body.error).toMatch(/^Solo se aceptan archivos PDF, JPEG y PNG/);
    const html = await upload(Buffer.from('<html><script>alert(1)</script></html>'), {}, 'image/jpeg');
    expect(html.status).toBe(415);
    const empty = await upload(Buffer.alloc(0));
    expect([empty.status, empty.body.value.reason]).toEqual([400, 'CUSTOMER_DOCUMENT_EMPTY']);
    const json = await upload(Buffer.from('{"file":"JVBERi0xLjc="}'), {}, 'application/json');
    expect([json.status, json.body.value.reason]).toEqual([415, 'CUSTOMER_DOCUMENT_TYPE_NOT_ALLOWED']);
    const query = await upload(pdf(100), { Type: 'selfie', CustomerId: 'x' });
    expect([query.status, query.body.value.fields?.map((f) => f.field).sort()]).toEqual([
      400,
      ['CustomerId', 'Type'],
    ]);
    const unknown = await upload(pdf(100), { CustomerId: '00000000-0000-4000-8000-000000000000' });
    expect([unknown.status, unknown.body.value.reason]).toEqual([404, 'CUSTOMER_NOT_FOUND']);
  });

  it('reviews documents through the allowed statuses and lists them newest first with the total', async () => {
    const up = await upload(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(300)]), {
      FileName: 'selfie.jpg',
    });
    expect(up.body.value.contentType).toBe('image/jpeg');
    const review = (status: string, lang = 'en') =>
      s.call<Doc>(
        a,
        'POST',
        '/Customers/ReviewDocument',
        { documentId: up.body.value.id, status, comment: 'ok' },
        lang,
      );
    const verified = await review('verified', 'uz');
    expect(verified.body.value).toMatchObject({
      status: 'verified',
      statusName: 'Tasdiqlangan',
      reviewComment: 'ok',
    });
    const again = await review('verified', 'tr');
    expect([again.status, again.body.value.reason]).toEqual([409, 'CUSTOMER_DOCUMENT_TRANSITION']);
    expect(again.body.error).toBe('Belge «Doğrulandı» durumundan «Doğrulandı» durumuna geçirilemez.');
    expect((await review('rejected')).body.value.status).toBe('rejected');
    const list = await s.call<Page<Doc>>(
      a,
      'GET',
      `/Customers/GetDocuments?CustomerId=${customerId}&Offset=0&Count=2`,
    );
    expect(list.body.value.total).toBe(3);
    expect(list.body.value.items.map((d) => d.id)[0]).toBe(up.body.value.id);
    const missing = await download('00000000-0000-4000-8000-000000000000');
    expect([missing.status, ((await missing.json()) as Env).value.reason]).toEqual([
      404,
      'CUSTOMER_DOCUMENT_NOT_FOUND',
    ]);
  });

  it('answers a row whose bytes are gone with a coded error, not a hang or a broken stream', async () => {
    const up = await upload(pdf(2000));
    await rm(join(dir, 'bank-a', customerId, up.body.value.id));
    const res = await download(up.body.value.id);
    expect([res.status, ((await res.json()) as Env).value.reason]).toEqual([
      500,
      'CUSTOMER_DOCUMENT_FILE_MISSING',
    ]);
  });

  it('refuses uploads for a closed customer', async () => {
    const c = await s.call<{ id: string }>(a, 'POST', '/Customers/CreateCustomer', {
      kind: 'business',
      business: { legalName: 'Closed LLP' },
    });
    await s.call(a, 'POST', '/Customers/ChangeCustomerStatus', {
      customerId: c.body.value.id,
      status: 'closed',
    });
    const up = await upload(pdf(100), { CustomerId: c.body.value.id });
    expect([up.status, up.body.value.reason]).toEqual([409, 'CUSTOMER_CLOSED']);
  });
});
