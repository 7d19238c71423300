import type { MigrationInterface, QueryRunner } from 'typeorm';
import { CONSENT_TYPES } from '../customers/consents/consent-rules';

const TYPES = CONSENT_TYPES.map((t) => `'${t}'`).join(', ');

/**
 * A loan product names the consents a customer must have in force before the steps that need them
 * (submission, approval, contract, disbursement; docs/lending/loans.md, "Products"). Existing
 * products require none, as before.
 */
export class ProductRequiredConsents1764230000000 implements MigrationInterface {
  name = 'ProductRequiredConsents1764230000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE lending.loan_products ADD COLUMN required_consents text[] NOT NULL DEFAULT '{}'`,
    );
    await q.query(
      `ALTER TABLE lending.loan_products ADD CONSTRAINT loan_products_required_consents_check
         CHECK (required_consents <@ ARRAY[${TYPES}]::text[])`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE lending.loan_products DROP CONSTRAINT loan_products_required_consents_check`);
    await q.query(`ALTER TABLE lending.loan_products DROP COLUMN required_consents`);
  }
}
