import type { MigrationInterface, QueryRunner } from 'typeorm';
import { service } from '@platform/registry';
import { webhookTablesMigration } from '@platform/webhooks';

/** libs/webhooks' tables in verification's schema: the five case events' subscriptions and deliveries. */
export const WebhookTables1763900000000 = webhookTablesMigration(
  'WebhookTables1763900000000',
  service('verification').schema,
);

/** The applicant's name and birth date a case may carry, compared with what its documents say. */
export class CaseApplicant1763900000001 implements MigrationInterface {
  name = 'CaseApplicant1763900000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE verification.verification_cases ADD COLUMN applicant_name text');
    await q.query('ALTER TABLE verification.verification_cases ADD COLUMN applicant_birth_date date');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE verification.verification_cases DROP COLUMN applicant_birth_date');
    await q.query('ALTER TABLE verification.verification_cases DROP COLUMN applicant_name');
  }
}
