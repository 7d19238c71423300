import type { INestApplication } from '@nestjs/common';
import { TenancyAdminService } from '@platform/tenancy';
import { createTestDatabase, listen, request, serviceEnv } from '@platform/testing';
import { createVerificationApp } from '../../src/bootstrap';

type Env = {
  success: boolean;
  code: number;
  error: string | null;
  value: { reason?: string; total?: number; id?: string; secret?: string };
};

/**
 * The bound on webhook endpoints per organization holds when the calls come at once (issue 23): the
 * creates run in one transaction each, under the platform's count lock (libs/persistence
 * withinCountLimit). Before, they ran on the pool and 22 to 25 of 25 passed a bound of 20.
 */
describe('verification count limits under concurrency (real PostgreSQL)', () => {
  const MAX = 20;
  const AT_ONCE = 25;
  let app: INestApplication;
  let base: string;
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let key: string;

  beforeAll(async () => {
    db = await createTestDatabase('verification_count_limits');
    app = await createVerificationApp(
      serviceEnv(db.url, {
        WEBHOOKS_WORKER_INTERVAL_MS: '0',
        WEBHOOK_ENDPOINTS_MAX_PER_ORGANIZATION: String(MAX),
      }),
      false,
    );
    base = await listen(app);
    const admin = app.get(TenancyAdminService);
    await admin.createOwner('org-count', 'org-count');
    key = (await admin.issueKey('org-count', 'all')).token;
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  const call = (method: string, path: string, body?: unknown) =>
    request<Env>(`${base}/api/v1/${path}`, {
      method,
      headers: { 'X-API-Key': key, 'Service-Organization-Id': 'org-count' },
      body,
    });

  it(`creates exactly ${MAX} endpoints of ${AT_ONCE} concurrent creates`, async () => {
    const answers = await Promise.all(
      Array.from({ length: AT_ONCE }, (_, i) =>
        call('POST', 'webhook-endpoints', {
          url: `https://93.184.216.34/hooks/${i}`,
          events: ['case.status_changed'],
        }),
      ),
    );
    const tally: Record<string, number> = {};
    for (const a of answers) {
      const k = a.status === 201 ? '201' : `${a.status} ${a.body.value.reason}`;
      tally[k] = (tally[k] ?? 0) + 1;
    }
    expect(tally).toEqual({ '201': MAX, '409 WEBHOOK_ENDPOINT_LIMIT_REACHED': AT_ONCE - MAX });
    expect(answers.find((a) => a.status === 409)?.body.error).toContain(String(MAX));
    const list = await call('GET', 'webhook-endpoints');
    expect(list.body.value.total).toBe(MAX);

    // The answers that show the secret are not to be stored by any cache.
    const created = answers.find((a) => a.status === 201);
    expect(created?.headers.get('cache-control')).toBe('no-store');
    const rotated = await call('POST', `webhook-endpoints/${created?.body.value.id}/rotate-secret`, {});
    expect([rotated.status, rotated.headers.get('cache-control')]).toEqual([200, 'no-store']);
    expect(rotated.body.value.secret).toEqual(expect.any(String));
  });
});
