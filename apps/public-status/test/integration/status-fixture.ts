import type { INestApplication } from '@nestjs/common';
import { TenancyAdminService } from '@platform/tenancy';
import { createTestDatabase, listen, request, serviceEnv, type JsonResponse } from '@platform/testing';
import { createPublicStatusApp } from '../../src/bootstrap';
import { PUBLIC_STATUS_SCOPES } from '../../src/tenancy/scopes';

export type Env<T = Record<string, unknown>> = {
  success: boolean;
  code: number;
  error: string | null;
  value: T & { reason?: string };
};

export interface StatusFixture {
  app: INestApplication;
  base: string;
  db: Awaited<ReturnType<typeof createTestDatabase>>;
  /** Creates a business and returns the headers of a key with these scopes (all by default). */
  business(id: string, scopes?: string[]): Promise<Record<string, string>>;
  /** A management call as `headers`. */
  manage<T = Record<string, unknown>>(
    headers: Record<string, string>,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<JsonResponse<Env<T>>>;
  /** An anonymous GET. */
  get<T = Record<string, unknown>>(
    path: string,
    headers?: Record<string, string>,
  ): Promise<JsonResponse<Env<T>>>;
  close(): Promise<void>;
}

/** Public status on a fresh database, the rollup timer off (tests run rollups themselves). */
export async function startStatus(label: string, env: Record<string, string> = {}): Promise<StatusFixture> {
  const db = await createTestDatabase(label);
  const app = await createPublicStatusApp(
    serviceEnv(db.url, { UPTIME_ROLLUP_INTERVAL_MS: '0', ...env }),
    false,
  );
  const base = await listen(app);
  const admin = app.get(TenancyAdminService);
  return {
    app,
    base,
    db,
    business: async (id, scopes = [...PUBLIC_STATUS_SCOPES]) => {
      await admin.createOwner(id, id.toUpperCase());
      const key = await admin.issueKey(id, 'test', { scopes });
      return { 'X-Api-Key': key.token, 'Business-Id': id };
    },
    manage: (headers, method, path, body) =>
      request(`${base}/PublicStatus/manage${path}`, {
        method,
        headers,
        body: body === undefined && method !== 'GET' ? {} : body,
      }),
    get: (path, headers) => request(`${base}/PublicStatus/${path}`, { headers }),
    close: async () => {
      await app.close();
      await db.drop();
    },
  };
}
