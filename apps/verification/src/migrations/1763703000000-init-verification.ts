import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dropOutboxTablesDdl, outboxTablesDdl } from '@platform/outbox';
import { apiKeyTablesDdl, dropApiKeyTablesDdl } from '@platform/tenancy';

const KEYS = { ownerTable: 'organizations' };

export class InitVerification1763703000000 implements MigrationInterface {
  name = 'InitVerification1763703000000';

  async up(q: QueryRunner): Promise<void> {
    // Organizations and their API keys, as every service with keys has them (libs/tenancy).
    for (const ddl of apiKeyTablesDdl('verification', KEYS)) await q.query(ddl);
    await q.query(`CREATE TABLE verification.verification_cases (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id text NOT NULL REFERENCES verification.organizations(id),
      status text NOT NULL,
      external_reference_id text NOT NULL,
      applicant_type text NOT NULL,
      applicant_country_code text NOT NULL,
      report_country_code text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(
      `CREATE INDEX cases_org_ref_idx ON verification.verification_cases (organization_id, external_reference_id)`,
    );
    for (const ddl of outboxTablesDdl('verification')) await q.query(ddl);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const ddl of dropOutboxTablesDdl('verification')) await q.query(ddl);
    await q.query('DROP TABLE verification.verification_cases');
    for (const ddl of dropApiKeyTablesDdl('verification', KEYS)) await q.query(ddl);
  }
}
