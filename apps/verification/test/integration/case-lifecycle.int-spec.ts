import { createHash } from 'node:crypto';
import type { INestApplication } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createTestDatabase, listen, request, serviceEnv } from '@platform/testing';
import { TenancyAdminService } from '@platform/tenancy';
import { createVerificationApp } from '../../src/bootstrap';

type Env<T = unknown> = { success: boolean; code: number; error: string | null; value: T };
type Created = { id: string; status: string; applicantUploadUrl: string; reason?: string };
type Case = { id: string; status: string; externalReferenceId: string; reason?: string };

describe('verification cases: create, idempotency, status machine (real PostgreSQL)', () => {
  let app: INestApplication;
  let base: string;
  let ds: DataSource;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let keyA: string;
  let keyB: string;
  let readOnly: string;
  let n = 0;

  beforeAll(async () => {
    db = await createTestDatabase('verification_case_lifecycle');
    app = await createVerificationApp(
      { ...serviceEnv(db.url), APPLICANT_PORTAL_URL: 'https://verify.example.com' },
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
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  const body = (ref = `APP-${++n}`) => ({
    externalReferenceId: ref,
    applicantType: 'Individual',
    applicantCountryCode: 'KZ',
    reportCountryCode: 'KZ',
  });
  const auth = (key = keyA, org = 'org-a') => ({ 'X-API-Key': key, 'Service-Organization-Id': org });
  const create = (idem: string | undefined, b: unknown, key = keyA, org = 'org-a', extra = {}) =>
    request<Env<Created>>(`${base}/api/v1/verification-cases`, {
      method: 'POST',
      headers: { ...auth(key, org), ...(idem === undefined ? {} : { 'Idempotency-Key': idem }), ...extra },
      body: b,
    });
  const rows = async (org: string, ref: string) =>
    Number(
      (
        await ds.query(
          'SELECT count(*)::int AS n FROM verification.verification_cases WHERE organization_id = $1 AND external_reference_id = $2',
          [org, ref],
        )
      )[0].n,
    );
  const get = (path: string, key = keyA, org = 'org-a', extra = {}) =>
    request<Env<Case & { items: (Case & { fromStatus: string | null; toStatus: string })[]; total: number }>>(
      `${base}/api/v1/verification-cases${path}`,
      { headers: { ...auth(key, org), ...extra } },
    );
  const cancel = (id: string, key = keyA, org = 'org-a', extra = {}) =>
    request<Env<Case>>(`${base}/api/v1/verification-cases/${id}/cancel`, {
      method: 'POST',
      headers: { ...auth(key, org), ...extra },
    });

  it('creates a case exactly as the spec shows, with a single-use upload link stored only as a hash', async () => {
    const b = body();
    const res = await create('k-create-1', b);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      code: expect.any(Number),
      error: null,
      value: { id: expect.any(String), status: 'AwaitingApplicant', applicantUploadUrl: expect.any(String) },
    });
    const url = new URL(res.body.value.applicantUploadUrl);
    expect(url.origin).toBe('https://verify.example.com');
    const token = url.pathname.replace('/portal/v1/upload/', '');
    expect(token).toMatch(/^vup_[A-Za-z0-9_-]{43}$/);
    const stored = await ds.query(
      'SELECT token_hash, expires_at FROM verification.case_upload_tokens WHERE case_id = $1',
      [res.body.value.id],
    );
    expect(stored).toHaveLength(1);
    expect(stored[0].token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(await ds.query('SELECT * FROM verification.case_upload_tokens'))).not.toContain(
      token,
    );
    const hours = (new Date(stored[0].expires_at).getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(71);
    const one = await get(`/${res.body.value.id}`);
    expect(one.status).toBe(200);
    expect(one.body.value).toMatchObject({ id: res.body.value.id, status: 'AwaitingApplicant', ...b });
  });

  it('answers a repeat with the same key and body with the case already created, and no second row', async () => {
    const b = body();
    const first = await create('k-repeat', b);
    const again = await create('k-repeat', b);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body.value.id).toBe(first.body.value.id);
    expect(again.body.value.status).toBe('AwaitingApplicant');
    expect(await rows('org-a', b.externalReferenceId)).toBe(1);
    // A repeat says it is one, and its upload link is a fresh one to the same case (the link is a secret
    // kept only as a hash, so the key stores the case, not the answer).
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.value.applicantUploadUrl).not.toBe(first.body.value.applicantUploadUrl);
    const keys = await ds.query(
      `SELECT expires_at - created_at >= interval '24 hours' AS kept, status_code, response_body, route
         FROM verification.idempotency_keys WHERE organization_id = 'org-a' AND key = 'k-repeat'`,
    );
    expect(keys).toEqual([
      {
        kept: true,
        status_code: 201,
        response_body: JSON.stringify({ caseId: first.body.value.id }),
        route: 'POST /api/v1/verification-cases',
      },
    ]);
  });

  it('creates exactly one case from 20 identical concurrent requests', async () => {
    const b = body();
    const all = await Promise.all(Array.from({ length: 20 }, () => create('k-burst', b)));
    const ok = all.filter((r) => r.status === 201);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const r of all) expect([201, 409]).toContain(r.status);
    expect(new Set(ok.map((r) => r.body.value.id)).size).toBe(1);
    for (const r of all.filter((x) => x.status === 409))
      expect(r.body.value.reason).toBe('IDEMPOTENCY_REQUEST_IN_PROGRESS');
    expect(await rows('org-a', b.externalReferenceId)).toBe(1);
    const after = await create('k-burst', b);
    expect([after.status, after.body.value.id]).toEqual([201, ok[0].body.value.id]);
  });

  it('refuses the same key with a different body (422) and creates nothing', async () => {
    const b = body();
    expect((await create('k-diff', b)).status).toBe(201);
    const other = { ...b, reportCountryCode: 'UZ' };
    const res = await create('k-diff', other, keyA, 'org-a', { 'Accept-Language': 'ru' });
    expect([res.status, res.body.success, res.body.value.reason]).toEqual([
      422,
      false,
      'IDEMPOTENCY_KEY_REUSED',
    ]);
    expect(res.body.error).toBe(
      'Этот Idempotency-Key уже использован для другого запроса; для новой операции нужен новый ключ.',
    );
    expect(await rows('org-a', b.externalReferenceId)).toBe(1);
  });

  it('answers 409 while the first request with the key is still in its transaction', async () => {
    const b = body();
    const holder = ds.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    // The first request takes the key, then waits on this lock to insert its case.
    await holder.query('LOCK TABLE verification.verification_cases IN EXCLUSIVE MODE');
    const first = create('k-inflight', b);
    try {
      for (let i = 0; i < 200; i++) {
        const [{ held }] = await ds.query(
          `SELECT count(*)::int AS held FROM pg_locks WHERE locktype = 'advisory' AND granted
             AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        );
        if (held > 0) break;
        await new Promise((r) => setTimeout(r, 25));
      }
      const second = await create('k-inflight', b, keyA, 'org-a', { 'Accept-Language': 'es' });
      expect([second.status, second.body.value.reason]).toEqual([409, 'IDEMPOTENCY_REQUEST_IN_PROGRESS']);
      expect(second.body.error).toBe(
        'La primera solicitud con esta Idempotency-Key aún se está procesando; repítala en breve para obtener su resultado.',
      );
    } finally {
      await holder.commitTransaction();
      await holder.release();
    }
    const done = await first;
    expect(done.status).toBe(201);
    const again = await create('k-inflight', b);
    expect(again.body.value.id).toBe(done.body.value.id);
    expect(await rows('org-a', b.externalReferenceId)).toBe(1);
  });

  it('requires the Idempotency-Key (400, localised) and scopes keys per organization', async () => {
    const missing = await create(undefined, body(), keyA, 'org-a', { 'Accept-Language': 'kk' });
    expect([missing.status, missing.body.value.reason]).toEqual([400, 'IDEMPOTENCY_KEY_MISSING']);
    expect(missing.body.error).toBe(
      'Осы операциямен Idempotency-Key тақырыбын жіберіңіз: қайталауды қауіпсіз ететін бірегей мән (мысалы, UUID).',
    );
    const b = body();
    const a = await create('k-shared', b);
    const other = await create('k-shared', b, keyB, 'org-b');
    expect([a.status, other.status]).toEqual([201, 201]);
    expect(other.body.value.id).not.toBe(a.body.value.id);
  });

  it('lists with filters, paging and the total', async () => {
    const ref = `LIST-${Date.now()}`;
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await create(`k-list-${i}`, body(ref))).body.value.id);
    const p1 = await get(`?externalReferenceId=${ref}&limit=2`);
    expect([p1.status, p1.body.value.total, p1.body.value.items.length]).toEqual([200, 3, 2]);
    const p2 = await get(`?externalReferenceId=${ref}&limit=2&offset=2`);
    expect(p2.body.value.items).toHaveLength(1);
    expect(new Set([...p1.body.value.items, ...p2.body.value.items].map((c) => c.id))).toEqual(new Set(ids));
    await cancel(ids[0]);
    const cancelled = await get(`?externalReferenceId=${ref}&status=Cancelled`);
    expect(cancelled.body.value.items.map((c) => c.id)).toEqual([ids[0]]);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await get(`?externalReferenceId=${ref}&createdFrom=${future}`)).body.value.total).toBe(0);
    expect((await get(`?externalReferenceId=${ref}&createdTo=${future}`)).body.value.total).toBe(3);
    expect((await get(`?externalReferenceId=${ref}`, keyB, 'org-b')).body.value.total).toBe(0);
  });

  it('cancels once, keeps the history, and refuses the illegal move localised in three languages', async () => {
    const id = (await create('k-cancel', body())).body.value.id;
    const res = await cancel(id);
    expect([res.status, res.body.value.status]).toEqual([200, 'Cancelled']);
    const texts = {
      en: 'The case cannot move from Cancelled to Cancelled.',
      ru: 'Проверку нельзя перевести из статуса Cancelled в статус Cancelled.',
      tr: 'Kontrol Cancelled durumundan Cancelled durumuna geçirilemez.',
    };
    for (const [lang, text] of Object.entries(texts)) {
      const again = await cancel(id, keyA, 'org-a', { 'Accept-Language': lang });
      expect([again.status, again.body.success, again.body.value.reason]).toEqual([
        409,
        false,
        'CASE_TRANSITION_NOT_ALLOWED',
      ]);
      expect(again.body.error).toBe(text);
    }
    const history = await get(`/${id}/history`);
    expect(history.body.value.total).toBe(2);
    expect(history.body.value.items.map((h) => [h.fromStatus, h.toStatus])).toEqual([
      [null, 'AwaitingApplicant'],
      ['AwaitingApplicant', 'Cancelled'],
    ]);
  });

  it("answers 404 for another organization's case and changes nothing", async () => {
    const id = (await create('k-foreign', body())).body.value.id;
    expect((await get(`/${id}`, keyB, 'org-b')).status).toBe(404);
    expect((await get(`/${id}/history`, keyB, 'org-b')).status).toBe(404);
    const c = await cancel(id, keyB, 'org-b');
    expect([c.status, c.body.value.reason]).toEqual([404, 'CASE_NOT_FOUND']);
    expect((await get(`/${id}`)).body.value.status).toBe('AwaitingApplicant');
    expect((await get(`/${id}/history`)).body.value.total).toBe(1);
  });

  it('needs cases:write to create or cancel', async () => {
    const res = await create('k-ro', body(), readOnly);
    expect([res.status, res.body.value.reason]).toEqual([403, 'SCOPE_MISSING']);
  });

  it('answers hostile input with 4xx, never 500', async () => {
    const b = body();
    const bad: [string | undefined, unknown][] = [
      ['k-h1', { ...b, applicantCountryCode: 'kz' }],
      ['k-h2', { ...b, applicantType: 'Robot' }],
      ['k-h3', { ...b, externalReferenceId: 'x'.repeat(129) }],
      ['k-h4', { ...b, externalReferenceId: '' }],
      ['k-h5', { ...b, extra: 1 }],
      ['k-h6', { ...b, externalReferenceId: { $ne: 1 } }],
      ['k h7', b],
      ['x'.repeat(256), b],
      ['k-h9', '{"externalReferenceId":'],
      ['k-h10', [b]],
    ];
    for (const [idem, payload] of bad) {
      const res = await create(idem, payload);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    for (const path of ['/not-a-uuid', "/'%20OR%201=1--", '/00000000-0000-0000-0000-000000000000/history'])
      expect((await get(path)).status).toBe(404);
    for (const q of ['?status=Nope', '?createdFrom=yesterday', '?limit=0', '?limit=201', '?offset=-1'])
      expect((await get(q)).status).toBe(400);
    expect(await rows('org-a', b.externalReferenceId)).toBe(0);
  });
});
