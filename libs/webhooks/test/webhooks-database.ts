/**
 * A fresh database for this suite on the run's PostgreSQL server. Not `createTestDatabase` from
 * `@platform/testing`: a data-access lib may not depend on a testing lib (the module boundaries that
 * bite, eslint.config.mjs), and the testing lib's fixtures will come to use this one.
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createDatabaseIfMissing } from '@platform/dev-infra';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

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
