import type { MigrationInterface, QueryRunner } from 'typeorm';
import { sqlIn } from '../common/columns';
import { LEDGER_ACCOUNTS, TRANSACTION_KINDS } from '../loans/ledger/chart-of-accounts';
import { DEBT_COMPONENTS, FREQUENCIES, ROUNDINGS, SCHEDULE_TYPES } from '../loans/loan-terms';
import { LOAN_STATUSES } from '../loans/loan-workflow';
import { TENANT_ROLE, tenantTableDdl } from '../tenancy/tenant-rls';

// The day counts of this migration's time; 1764240000000 adds the others.
const DAY_COUNTS = ['30/360', 'ACT/365F', 'ACT/ACT'];

const TABLES = [
  'loan_products',
  'loans',
  'ledger_transactions',
  'loan_instalments',
  'ledger_lines',
  'idempotency_keys',
];

/**
 * Loans (issue 14, docs/lending/loans.md): products, loan contracts, their schedules, the double-entry
 * ledger and the Idempotency-Keys of money operations. Every table is tenant data under the forced
 * row-level-security policy of decision 0025, and every reference carries the organization.
 *
 * The ledger is append-only for the tenant role, and balanced by construction of the database: a
 * deferred constraint trigger checks, when the transaction commits, that each ledger transaction
 * written has at least two lines, all of its own loan, whose debits equal its credits (> 0). A
 * bug that writes one side only fails the commit; nothing half-booked can exist.
 */
export class LoansLedger1764000000000 implements MigrationInterface {
  name = 'LoansLedger1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE lending.loan_products (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id text NOT NULL
        CONSTRAINT loan_products_organization_id_fkey REFERENCES lending.organizations (id),
      code text NOT NULL,
      name text NOT NULL,
      currency text NOT NULL,
      min_amount bigint NOT NULL,
      max_amount bigint NOT NULL,
      min_term integer NOT NULL,
      max_term integer NOT NULL,
      annual_rate numeric(14,10) NOT NULL,
      frequency text NOT NULL,
      schedule_type text NOT NULL,
      day_count text NOT NULL,
      grace_interest_only integer NOT NULL DEFAULT 0,
      grace_principal integer NOT NULL DEFAULT 0,
      origination_fee bigint NOT NULL DEFAULT 0,
      origination_fee_percent numeric(14,10) NOT NULL DEFAULT 0,
      penalty_annual_rate numeric(14,10) NOT NULL DEFAULT 0,
      penalty_grace_days integer NOT NULL DEFAULT 0,
      allocation_order text[] NOT NULL,
      rounding text NOT NULL,
      active boolean NOT NULL DEFAULT true,
      version integer NOT NULL DEFAULT 1,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT loan_products_organization_id_id_key UNIQUE (organization_id, id),
      CONSTRAINT loan_products_code_key UNIQUE (organization_id, code),
      CONSTRAINT loan_products_currency_check CHECK (currency ~ '^[A-Z]{3}$'),
      CONSTRAINT loan_products_amount_check CHECK (min_amount > 0 AND min_amount <= max_amount),
      CONSTRAINT loan_products_term_check CHECK (min_term > 0 AND min_term <= max_term),
      CONSTRAINT loan_products_rates_check CHECK (annual_rate >= 0 AND penalty_annual_rate >= 0
        AND origination_fee_percent >= 0 AND origination_fee >= 0),
      CONSTRAINT loan_products_grace_check CHECK (grace_interest_only >= 0 AND grace_principal >= 0
        AND penalty_grace_days >= 0),
      CONSTRAINT loan_products_frequency_check CHECK (${sqlIn('frequency', FREQUENCIES)}),
      CONSTRAINT loan_products_schedule_type_check CHECK (${sqlIn('schedule_type', SCHEDULE_TYPES)}),
      CONSTRAINT loan_products_day_count_check CHECK (${sqlIn('day_count', DAY_COUNTS)}),
      CONSTRAINT loan_products_rounding_check CHECK (${sqlIn('rounding', ROUNDINGS)}),
      CONSTRAINT loan_products_allocation_order_check CHECK (cardinality(allocation_order) = 6))`);
    await q.query(
      `CREATE INDEX loan_products_org_created_idx ON lending.loan_products (organization_id, created_at)`,
    );

    await q.query(`CREATE TABLE lending.loans (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id text NOT NULL CONSTRAINT loans_organization_id_fkey REFERENCES lending.organizations (id),
      application_id uuid NOT NULL,
      customer_id uuid NOT NULL,
      product_id uuid NOT NULL,
      status text NOT NULL,
      currency text NOT NULL,
      principal bigint NOT NULL,
      term_count integer NOT NULL,
      annual_rate numeric(14,10) NOT NULL,
      frequency text NOT NULL,
      schedule_type text NOT NULL,
      day_count text NOT NULL,
      grace_interest_only integer NOT NULL,
      grace_principal integer NOT NULL,
      origination_fee bigint NOT NULL,
      penalty_annual_rate numeric(14,10) NOT NULL,
      penalty_grace_days integer NOT NULL,
      allocation_order text[] NOT NULL,
      rounding text NOT NULL,
      disbursed_on date,
      closed_on date,
      created_by_key_id text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT loans_organization_id_id_key UNIQUE (organization_id, id),
      CONSTRAINT loans_application_key UNIQUE (organization_id, application_id),
      CONSTRAINT loans_application_fkey FOREIGN KEY (organization_id, application_id)
        REFERENCES lending.applications (organization_id, id),
      CONSTRAINT loans_customer_fkey FOREIGN KEY (organization_id, customer_id)
        REFERENCES lending.customers (organization_id, id),
      CONSTRAINT loans_product_fkey FOREIGN KEY (organization_id, product_id)
        REFERENCES lending.loan_products (organization_id, id),
      CONSTRAINT loans_status_check CHECK (${sqlIn('status', LOAN_STATUSES)}),
      CONSTRAINT loans_currency_check CHECK (currency ~ '^[A-Z]{3}$'),
      CONSTRAINT loans_terms_check CHECK (principal > 0 AND term_count > 0 AND origination_fee >= 0),
      CONSTRAINT loans_frequency_check CHECK (${sqlIn('frequency', FREQUENCIES)}),
      CONSTRAINT loans_schedule_type_check CHECK (${sqlIn('schedule_type', SCHEDULE_TYPES)}),
      CONSTRAINT loans_day_count_check CHECK (${sqlIn('day_count', DAY_COUNTS)}),
      CONSTRAINT loans_rounding_check CHECK (${sqlIn('rounding', ROUNDINGS)}))`);
    await q.query(`CREATE INDEX loans_org_created_idx ON lending.loans (organization_id, created_at)`);
    await q.query(
      `CREATE INDEX loans_org_status_created_idx ON lending.loans (organization_id, status, created_at)`,
    );
    await q.query(
      `CREATE INDEX loans_org_customer_created_idx ON lending.loans (organization_id, customer_id, created_at)`,
    );

    await q.query(`CREATE TABLE lending.ledger_transactions (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id text NOT NULL
        CONSTRAINT ledger_transactions_organization_id_fkey REFERENCES lending.organizations (id),
      loan_id uuid NOT NULL,
      seq integer NOT NULL,
      kind text NOT NULL,
      amount bigint NOT NULL,
      value_date date NOT NULL,
      reverses_id uuid,
      idempotency_key text,
      details jsonb NOT NULL,
      key_id text,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT ledger_transactions_organization_id_id_key UNIQUE (organization_id, id),
      CONSTRAINT ledger_transactions_reverses_key UNIQUE (organization_id, reverses_id),
      CONSTRAINT ledger_transactions_loan_fkey FOREIGN KEY (organization_id, loan_id)
        REFERENCES lending.loans (organization_id, id),
      CONSTRAINT ledger_transactions_reverses_fkey FOREIGN KEY (organization_id, reverses_id)
        REFERENCES lending.ledger_transactions (organization_id, id),
      CONSTRAINT ledger_transactions_kind_check CHECK (${sqlIn('kind', TRANSACTION_KINDS)}),
      CONSTRAINT ledger_transactions_amount_check CHECK (amount >= 0),
      CONSTRAINT ledger_transactions_reversal_check CHECK ((kind = 'reversal') = (reverses_id IS NOT NULL)))`);
    await q.query(`CREATE UNIQUE INDEX ledger_transactions_loan_seq_idx
      ON lending.ledger_transactions (organization_id, loan_id, seq)`);

    await q.query(`CREATE TABLE lending.loan_instalments (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id text NOT NULL
        CONSTRAINT loan_instalments_organization_id_fkey REFERENCES lending.organizations (id),
      loan_id uuid NOT NULL,
      number integer NOT NULL,
      period_start date NOT NULL,
      due_date date NOT NULL,
      principal bigint NOT NULL,
      interest bigint NOT NULL,
      fees bigint NOT NULL,
      total bigint NOT NULL,
      balance_after bigint NOT NULL,
      created_by uuid NOT NULL,
      superseded_by uuid,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT loan_instalments_organization_id_id_key UNIQUE (organization_id, id),
      CONSTRAINT loan_instalments_loan_fkey FOREIGN KEY (organization_id, loan_id)
        REFERENCES lending.loans (organization_id, id),
      CONSTRAINT loan_instalments_created_by_fkey FOREIGN KEY (organization_id, created_by)
        REFERENCES lending.ledger_transactions (organization_id, id),
      CONSTRAINT loan_instalments_superseded_by_fkey FOREIGN KEY (organization_id, superseded_by)
        REFERENCES lending.ledger_transactions (organization_id, id),
      CONSTRAINT loan_instalments_amounts_check
        CHECK (principal >= 0 AND interest >= 0 AND fees >= 0 AND balance_after >= 0),
      CONSTRAINT loan_instalments_total_check CHECK (total = principal + interest + fees),
      CONSTRAINT loan_instalments_dates_check CHECK (period_start < due_date))`);
    await q.query(`CREATE UNIQUE INDEX loan_instalments_current_key
      ON lending.loan_instalments (loan_id, number) WHERE superseded_by IS NULL`);
    await q.query(`CREATE INDEX loan_instalments_loan_due_idx
      ON lending.loan_instalments (organization_id, loan_id, due_date)`);

    await q.query(`CREATE TABLE lending.ledger_lines (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id text NOT NULL
        CONSTRAINT ledger_lines_organization_id_fkey REFERENCES lending.organizations (id),
      transaction_id uuid NOT NULL,
      loan_id uuid NOT NULL,
      account text NOT NULL,
      debit bigint NOT NULL DEFAULT 0,
      credit bigint NOT NULL DEFAULT 0,
      component text,
      instalment_id uuid,
      CONSTRAINT ledger_lines_transaction_fkey FOREIGN KEY (organization_id, transaction_id)
        REFERENCES lending.ledger_transactions (organization_id, id),
      CONSTRAINT ledger_lines_loan_fkey FOREIGN KEY (organization_id, loan_id)
        REFERENCES lending.loans (organization_id, id),
      CONSTRAINT ledger_lines_instalment_fkey FOREIGN KEY (organization_id, instalment_id)
        REFERENCES lending.loan_instalments (organization_id, id),
      CONSTRAINT ledger_lines_account_check CHECK (${sqlIn('account', LEDGER_ACCOUNTS)}),
      CONSTRAINT ledger_lines_component_check CHECK (component IS NULL OR ${sqlIn('component', DEBT_COMPONENTS)}),
      CONSTRAINT ledger_lines_side_check CHECK (debit >= 0 AND credit >= 0 AND (debit > 0) <> (credit > 0)))`);
    await q.query(
      `CREATE INDEX ledger_lines_transaction_idx ON lending.ledger_lines (organization_id, transaction_id)`,
    );
    await q.query(
      `CREATE INDEX ledger_lines_loan_account_idx ON lending.ledger_lines (organization_id, loan_id, account)`,
    );
    await q.query(`CREATE INDEX ledger_lines_instalment_idx
      ON lending.ledger_lines (organization_id, instalment_id) WHERE instalment_id IS NOT NULL`);

    // Balanced by the database: checked at commit for every transaction written and every line added.
    await q.query(`CREATE FUNCTION lending.ledger_check_balanced(tx uuid) RETURNS void
      LANGUAGE plpgsql AS $$
      DECLARE debits numeric; credits numeric; lines integer; foreign_lines integer;
      BEGIN
        SELECT coalesce(sum(l.debit), 0), coalesce(sum(l.credit), 0), count(l.id),
               count(l.id) FILTER (WHERE l.loan_id <> t.loan_id)
          INTO debits, credits, lines, foreign_lines
          FROM lending.ledger_transactions t
          LEFT JOIN lending.ledger_lines l
            ON l.organization_id = t.organization_id AND l.transaction_id = t.id
         WHERE t.id = tx;
        IF lines < 2 OR debits <> credits OR debits = 0 OR foreign_lines > 0 THEN
          RAISE EXCEPTION 'ledger transaction % does not balance: debits %, credits %, lines %, of another loan %',
            tx, debits, credits, lines, foreign_lines USING ERRCODE = 'check_violation';
        END IF;
      END $$`);
    await q.query(`CREATE FUNCTION lending.ledger_transactions_balanced() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM lending.ledger_check_balanced(NEW.id);
        RETURN NULL;
      END $$`);
    await q.query(`CREATE FUNCTION lending.ledger_lines_balanced() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP IN ('INSERT', 'UPDATE') THEN PERFORM lending.ledger_check_balanced(NEW.transaction_id); END IF;
        IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM lending.ledger_check_balanced(OLD.transaction_id); END IF;
        RETURN NULL;
      END $$`);
    await q.query(`CREATE CONSTRAINT TRIGGER ledger_transactions_balanced
      AFTER INSERT ON lending.ledger_transactions DEFERRABLE INITIALLY DEFERRED
      FOR EACH ROW EXECUTE FUNCTION lending.ledger_transactions_balanced()`);
    await q.query(`CREATE CONSTRAINT TRIGGER ledger_lines_balanced
      AFTER INSERT OR UPDATE OR DELETE ON lending.ledger_lines DEFERRABLE INITIALLY DEFERRED
      FOR EACH ROW EXECUTE FUNCTION lending.ledger_lines_balanced()`);

    await q.query(`CREATE TABLE lending.idempotency_keys (
      organization_id text NOT NULL
        CONSTRAINT idempotency_keys_organization_id_fkey REFERENCES lending.organizations (id),
      key text NOT NULL,
      request_hash text NOT NULL,
      route text NOT NULL,
      status_code integer NOT NULL,
      response_body text NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (organization_id, key),
      CONSTRAINT idempotency_keys_status_check CHECK (status_code BETWEEN 200 AND 299))`);
    await q.query(`CREATE INDEX idempotency_keys_org_expires_idx
      ON lending.idempotency_keys (organization_id, expires_at)`);

    for (const table of TABLES) for (const ddl of tenantTableDdl(table)) await q.query(ddl);
    // The ledger is a record: the tenant role adds to it, never changes it (a reversal undoes).
    await q.query(
      `REVOKE UPDATE, DELETE ON lending.ledger_transactions, lending.ledger_lines FROM ${TENANT_ROLE}`,
    );
    // Instalments are only ever marked superseded (or restored by a reversal), never deleted.
    await q.query(`REVOKE DELETE ON lending.loan_instalments FROM ${TENANT_ROLE}`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [...TABLES].reverse()) await q.query(`DROP TABLE lending.${table}`);
    await q.query('DROP FUNCTION lending.ledger_lines_balanced()');
    await q.query('DROP FUNCTION lending.ledger_transactions_balanced()');
    await q.query('DROP FUNCTION lending.ledger_check_balanced(uuid)');
  }
}
