import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dropOutboxTablesDdl, outboxTablesDdl } from '@platform/outbox';

export class InitLending1763702000000 implements MigrationInterface {
  name = 'InitLending1763702000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE lending.organizations (
      id text PRIMARY KEY,
      name text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE TABLE lending.partner_keys (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      key_id text NOT NULL UNIQUE,
      organization_id text NOT NULL REFERENCES lending.organizations(id),
      hash text NOT NULL,
      label text NOT NULL,
      scopes text[] NOT NULL,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now())`);
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
    await q.query('DROP TABLE lending.partner_keys');
    await q.query('DROP TABLE lending.organizations');
  }
}
