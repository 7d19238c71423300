import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createDatabaseIfMissing } from './embedded-postgres';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A fresh database on the test run's PostgreSQL server (TEST_PG_SERVER_URL), so a suite shares no
 * table with another. For libraries whose tests may not use `@platform/testing` (module boundaries).
 */
export async function freshDatabase(label: string): Promise<TestDatabase> {
  const server = process.env.TEST_PG_SERVER_URL;
  if (!server) throw new Error('TEST_PG_SERVER_URL is not set: run through scripts/jest/int.config.js');
  const name = `${label}_${randomBytes(4).toString('hex')}`;
  await createDatabaseIfMissing(server, name);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new Client({ connectionString: server });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
