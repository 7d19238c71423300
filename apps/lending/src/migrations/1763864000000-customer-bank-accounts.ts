import type { MigrationInterface, QueryRunner } from 'typeorm';
import { tenantTableDdl } from '../tenancy/tenant-rls';

/** Customers' bank accounts: an IBAN or a local number with its bank code; one primary at most. */
export class CustomerBankAccounts1763864000000 implements MigrationInterface {
  name = 'CustomerBankAccounts1763864000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE lending.customer_bank_accounts (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id text NOT NULL
        CONSTRAINT customer_bank_accounts_organization_id_fkey REFERENCES lending.organizations (id),
      customer_id uuid NOT NULL,
      format text NOT NULL
        CONSTRAINT customer_bank_accounts_format_check CHECK (format IN ('iban', 'local')),
      iban text,
      account_number text,
      bank_code text,
      bic text,
      bank_name text,
      country text NOT NULL,
      currency text NOT NULL CONSTRAINT customer_bank_accounts_currency_check CHECK (currency ~ '^[A-Z]{3}$'),
      holder_name text NOT NULL,
      scheme text NOT NULL,
      account_key text NOT NULL,
      is_primary boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT customer_bank_accounts_shape_check CHECK (
        (format = 'iban' AND iban IS NOT NULL AND account_number IS NULL)
        OR (format = 'local' AND iban IS NULL AND account_number IS NOT NULL AND bank_code IS NOT NULL)),
      CONSTRAINT customer_bank_accounts_customer_fkey FOREIGN KEY (organization_id, customer_id)
        REFERENCES lending.customers (organization_id, id),
      CONSTRAINT customer_bank_accounts_account_key UNIQUE (organization_id, customer_id, account_key))`);
    await q.query(`CREATE UNIQUE INDEX customer_bank_accounts_primary_key
      ON lending.customer_bank_accounts (organization_id, customer_id) WHERE is_primary`);
    for (const ddl of tenantTableDdl('customer_bank_accounts')) await q.query(ddl);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE lending.customer_bank_accounts');
  }
}
