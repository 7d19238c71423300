import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dropOutboxTablesDdl, outboxTablesDdl } from '@platform/outbox';
import { apiKeyTablesDdl, dropApiKeyTablesDdl } from '@platform/tenancy';

const KEYS = { ownerTable: 'organizations' };

export class InitLending1763702000000 implements MigrationInterface {
  name = 'InitLending1763702000000';

  async up(q: QueryRunner): Promise<void> {
    // Organizations and their partner keys, as every service with keys has them (libs/tenancy).
    for (const ddl of apiKeyTablesDdl('lending', KEYS)) await q.query(ddl);
    await q.query(`CREATE TABLE lending.applications (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id text NOT NULL REFERENCES lending.organizations(id),
      status text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(
      `CREATE INDEX applications_org_created_idx ON lending.applications (organization_id, created_at)`,
    );
    for (const ddl of outboxTablesDdl('lending')) await q.query(ddl);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const ddl of dropOutboxTablesDdl('lending')) await q.query(ddl);
    await q.query('DROP TABLE lending.applications');
    for (const ddl of dropApiKeyTablesDdl('lending', KEYS)) await q.query(ddl);
  }
}
