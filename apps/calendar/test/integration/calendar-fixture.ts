import type { INestApplication } from '@nestjs/common';
import { SignJWT, exportSPKI, generateKeyPair } from 'jose';
import { createTestDatabase, listen, serviceEnv } from '@platform/testing';
import { createCalendarApp } from '../../src/bootstrap';
import { ensureAccount, ensureProduct, grantPermissions, issueProductKey } from './calendar-admin';
import type { Permission } from '../../src/grants/permissions';

export interface CalendarFixture {
  app: INestApplication;
  base: string;
  db: Awaited<ReturnType<typeof createTestDatabase>>;
  /** A PlatformSession for a person of account `acme` (or another). */
  session(subject: string, roles?: string[], account?: string): Promise<string>;
  /** Creates a product with a key and the given grants on `acme`; returns the key. */
  product(id: string, permissions: Permission[]): Promise<string>;
  close(): Promise<void>;
}

/**
 * The calendar on a fresh database with account `acme`, verifying sessions signed by a key of the
 * fixture's own (issuer https://id.test, audience calendar).
 */
export async function startCalendar(
  label: string,
  env: Record<string, string> = {},
): Promise<CalendarFixture> {
  const pair = await generateKeyPair('RS256');
  const db = await createTestDatabase(label);
  const app = await createCalendarApp(
    serviceEnv(db.url, {
      SESSION_PUBLIC_KEY_PEM: await exportSPKI(pair.publicKey),
      SESSION_ISSUER: 'https://id.test',
      ...env,
    }),
    false,
  );
  const base = await listen(app);
  await ensureAccount(app, 'acme', 'Acme');
  return {
    app,
    base,
    db,
    session: (subject, roles = [], account = 'acme') =>
      new SignJWT({ account_id: account, roles })
        .setProtectedHeader({ alg: 'RS256' })
        .setSubject(subject)
        .setIssuer('https://id.test')
        .setAudience('calendar')
        .setExpirationTime('10m')
        .sign(pair.privateKey),
    product: async (id, permissions) => {
      await ensureProduct(app, id, id);
      const key = (await issueProductKey(app, id, 'test')).token;
      if (permissions.length) await grantPermissions(app, 'acme', id, permissions);
      return key;
    },
    close: async () => {
      await app.close();
      await db.drop();
    },
  };
}
