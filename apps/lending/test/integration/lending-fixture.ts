import type { INestApplication } from '@nestjs/common';
import { TenancyAdminService } from '@platform/tenancy';
import { createTestDatabase, listen, request, serviceEnv, type JsonResponse } from '@platform/testing';
import { createLendingApp } from '../../src/bootstrap';
import { LENDING_SCOPES } from '../../src/tenancy/scopes';

export type Env<T = Record<string, unknown>> = {
  success: boolean;
  code: number;
  error: string | null;
  value: T & { reason?: string; fields?: { field: string; rule: string }[] };
};

export interface LendingFixture {
  app: INestApplication;
  base: string;
  db: Awaited<ReturnType<typeof createTestDatabase>>;
  /** Creates an organization and returns the headers of a partner key with these scopes (all by default). */
  organization(id: string, scopes?: readonly string[]): Promise<Record<string, string>>;
  /**
   * A call as `headers` (X-Api-Key + Organization-Id): `path` like `/Customers/CreateCustomer`, a body
   * for non-GET methods (`{}` when omitted), `lang` as Language-Code.
   */
  call<T = Record<string, unknown>>(
    headers: Record<string, string>,
    method: string,
    path: string,
    body?: unknown,
    lang?: string,
  ): Promise<JsonResponse<Env<T>>>;
  close(): Promise<void>;
}

/** Lending on a fresh database (shared mode unless `env` says otherwise), listening on a free port. */
export async function startLending(label: string, env: Record<string, string> = {}): Promise<LendingFixture> {
  const db = await createTestDatabase(label);
  // The accounting day close runs only when a test asks for it (its events would otherwise appear mid-test).
  // The accruals job likewise runs only through RunAccruals in tests (its postings would appear mid-test).
  const app = await createLendingApp(
    serviceEnv(db.url, {
      LENDING_ACCOUNTING_CLOSE_INTERVAL_MS: '0',
      LENDING_ACCRUALS_INTERVAL_MS: '0',
      ...env,
    }),
    false,
  );
  const base = await listen(app);
  const admin = app.get(TenancyAdminService);
  return {
    app,
    base,
    db,
    organization: async (id, scopes = LENDING_SCOPES) => {
      await admin.createOwner(id, id.toUpperCase());
      const key = await admin.issueKey(id, 'test', { scopes: [...scopes] });
      return { 'X-Api-Key': key.token, 'Organization-Id': id };
    },
    call: (headers, method, path, body, lang = 'en') =>
      request(`${base}${path}`, {
        method,
        headers: { ...headers, 'Language-Code': lang },
        body: body === undefined && method !== 'GET' ? {} : body,
      }),
    close: async () => {
      await app.close();
      await db.drop();
    },
  };
}
