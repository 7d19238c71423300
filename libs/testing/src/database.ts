import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

function serverUrl(): string {
  const url = process.env.TEST_PG_SERVER_URL;
  if (!url)
    throw new Error(
      'TEST_PG_SERVER_URL is not set: run integration tests through scripts/jest/int.config.js',
    );
  return url;
}

function withDatabase(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

/** A fresh, empty database for one test file, so no test depends on another's data. */
export async function createTestDatabase(
  label = 'test',
): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const name = `${label
    .replace(/[^a-z0-9_]/gi, '_')
    .toLowerCase()
    .slice(0, 30)}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: serverUrl() });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(serverUrl(), name);
  return {
    url,
    name,
    drop: async () => {
      const c = new Client({ connectionString: serverUrl() });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** A short-lived client for assertions straight on the tables. */
export async function withClient<R>(url: string, fn: (c: Client) => Promise<R>): Promise<R> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}
