import type { MigrationInterface, QueryRunner } from 'typeorm';
import { sqlIn } from '../common/columns';
import { ACCRUAL_KINDS } from '../loans/accruals/loan-accrual.entity';
import { LEDGER_ACCOUNTS, SCHEDULE_CHANGE_KINDS, TRANSACTION_KINDS } from '../loans/ledger/chart-of-accounts';
import { TENANT_ROLE, tenantTableDdl } from '../tenancy/tenant-rls';

const TABLES = ['loan_accruals', 'loan_accrual_states', 'loan_schedule_versions'];

/** The chart and kinds as migration 1764000000000 left them (for `down`). */
const OLD_ACCOUNTS = [
  'cash',
  'loan_principal',
  'interest_receivable',
  'penalty_receivable',
  'fee_receivable',
  'interest_advance',
  'overpayment',
  'interest_income',
  'penalty_income',
  'fee_income',
  'credit_losses',
];
const OLD_KINDS = [
  'disbursement',
  'repayment',
  'reversal',
  'write_off',
  'interest_accrual',
  'penalty_accrual',
];

/** The balance check of every ledger transaction; `scheduleChangeKinds` may have no lines at all. */
const balanceCheck = (scheduleChangeKinds: readonly string[]) => `
  CREATE OR REPLACE FUNCTION lending.ledger_check_balanced(tx uuid) RETURNS void
  LANGUAGE plpgsql AS $$
  DECLARE debits numeric; credits numeric; lines integer; foreign_lines integer; k text;
  BEGIN
    SELECT t.kind, coalesce(sum(l.debit), 0), coalesce(sum(l.credit), 0), count(l.id),
           count(l.id) FILTER (WHERE l.loan_id <> t.loan_id)
      INTO k, debits, credits, lines, foreign_lines
      FROM lending.ledger_transactions t
      LEFT JOIN lending.ledger_lines l
        ON l.organization_id = t.organization_id AND l.transaction_id = t.id
     WHERE t.id = tx
     GROUP BY t.kind;
    IF lines = 0 AND ${scheduleChangeKinds.length ? sqlIn('k', scheduleChangeKinds) : 'false'} THEN
      RETURN;
    END IF;
    IF lines < 2 OR debits <> credits OR debits = 0 OR foreign_lines > 0 THEN
      RAISE EXCEPTION 'ledger transaction % does not balance: debits %, credits %, lines %, of another loan %',
        tx, debits, credits, lines, foreign_lines USING ERRCODE = 'check_violation';
    END IF;
  END $$`;

/**
 * Accruals and schedule changes (issue 14, docs/lending/loans.md "Accruals", "Schedule changes"):
 * - the ledger learns the overdue accounts (`overdue_principal`, `overdue_interest`) and the kinds
 *   `overdue_transfer`, `restructuring` and `payment_holiday`; a schedule change that moves no money is a
 *   transaction without lines, which the balance check now allows for those two kinds only;
 * - `loan_accruals`: every posting of the accruals job, unique per (organization, loan, day, kind);
 * - `loan_accrual_states`: how far each loan's accruals have gone;
 * - `loan_schedule_versions`: each version of a schedule, for its history (filled here for the loans
 *   already disbursed: their disbursement's schedule, and the schedule in force when it differs).
 */
export class LoanAccruals1764010000000 implements MigrationInterface {
  name = 'LoanAccruals1764010000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE lending.ledger_lines DROP CONSTRAINT ledger_lines_account_check,
      ADD CONSTRAINT ledger_lines_account_check CHECK (${sqlIn('account', LEDGER_ACCOUNTS)})`);
    await q.query(`ALTER TABLE lending.ledger_transactions DROP CONSTRAINT ledger_transactions_kind_check,
      ADD CONSTRAINT ledger_transactions_kind_check CHECK (${sqlIn('kind', TRANSACTION_KINDS)})`);
    await q.query(balanceCheck(SCHEDULE_CHANGE_KINDS));

    await q.query(`CREATE TABLE lending.loan_accruals (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id text NOT NULL
        CONSTRAINT loan_accruals_organization_id_fkey REFERENCES lending.organizations (id),
      loan_id uuid NOT NULL,
      accrual_date date NOT NULL,
      kind text NOT NULL,
      transaction_id uuid NOT NULL,
      amount bigint NOT NULL,
      base bigint,
      exact numeric,
      cumulative numeric,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT loan_accruals_day_key UNIQUE (organization_id, loan_id, accrual_date, kind),
      CONSTRAINT loan_accruals_loan_fkey FOREIGN KEY (organization_id, loan_id)
        REFERENCES lending.loans (organization_id, id),
      CONSTRAINT loan_accruals_transaction_fkey FOREIGN KEY (organization_id, transaction_id)
        REFERENCES lending.ledger_transactions (organization_id, id),
      CONSTRAINT loan_accruals_kind_check CHECK (${sqlIn('kind', ACCRUAL_KINDS)}),
      CONSTRAINT loan_accruals_amount_check CHECK (amount <> 0))`);

    await q.query(`CREATE TABLE lending.loan_accrual_states (
      organization_id text NOT NULL
        CONSTRAINT loan_accrual_states_organization_id_fkey REFERENCES lending.organizations (id),
      loan_id uuid NOT NULL,
      started_through date NOT NULL,
      accrued_through date NOT NULL,
      interest_instalment_id uuid,
      interest_cumulative numeric NOT NULL DEFAULT 0,
      penalty_cumulative numeric NOT NULL DEFAULT 0,
      penalty_run_start date,
      penalty_run_base bigint NOT NULL DEFAULT 0,
      overdue_since date,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, loan_id),
      CONSTRAINT loan_accrual_states_loan_fkey FOREIGN KEY (organization_id, loan_id)
        REFERENCES lending.loans (organization_id, id))`);

    await q.query(`CREATE TABLE lending.loan_schedule_versions (
      organization_id text NOT NULL
        CONSTRAINT loan_schedule_versions_organization_id_fkey REFERENCES lending.organizations (id),
      loan_id uuid NOT NULL,
      version integer NOT NULL,
      transaction_id uuid NOT NULL,
      instalment_ids uuid[] NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (organization_id, loan_id, version),
      CONSTRAINT loan_schedule_versions_loan_fkey FOREIGN KEY (organization_id, loan_id)
        REFERENCES lending.loans (organization_id, id),
      CONSTRAINT loan_schedule_versions_transaction_fkey FOREIGN KEY (organization_id, transaction_id)
        REFERENCES lending.ledger_transactions (organization_id, id))`);

    // The loans disbursed already: version 1 is the disbursement's schedule; version 2 the schedule in
    // force, when an early repayment has changed it since (the steps between are not recoverable).
    await q.query(`INSERT INTO lending.loan_schedule_versions (organization_id, loan_id, version, transaction_id, instalment_ids)
      SELECT i.organization_id, i.loan_id, 1, i.created_by, array_agg(i.id ORDER BY i.number)
        FROM lending.loan_instalments i
        JOIN lending.ledger_transactions t ON t.organization_id = i.organization_id AND t.id = i.created_by
       WHERE t.kind = 'disbursement'
       GROUP BY i.organization_id, i.loan_id, i.created_by`);
    await q.query(`INSERT INTO lending.loan_schedule_versions (organization_id, loan_id, version, transaction_id, instalment_ids)
      SELECT c.organization_id, c.loan_id, 2, c.last_by, c.ids
        FROM (SELECT i.organization_id, i.loan_id, array_agg(i.id ORDER BY i.number) AS ids,
                     (array_agg(i.created_by ORDER BY t.seq DESC))[1] AS last_by
                FROM lending.loan_instalments i
                JOIN lending.ledger_transactions t ON t.organization_id = i.organization_id AND t.id = i.created_by
               WHERE i.superseded_by IS NULL
               GROUP BY i.organization_id, i.loan_id) c
        JOIN lending.loan_schedule_versions v
          ON v.organization_id = c.organization_id AND v.loan_id = c.loan_id AND v.version = 1
       WHERE v.instalment_ids <> c.ids`);

    for (const table of TABLES) for (const ddl of tenantTableDdl(table)) await q.query(ddl);
    // What was posted and which schedules were in force are records: added to, never changed.
    await q.query(
      `REVOKE UPDATE, DELETE ON lending.loan_accruals, lending.loan_schedule_versions FROM ${TENANT_ROLE}`,
    );
    await q.query(`REVOKE DELETE ON lending.loan_accrual_states FROM ${TENANT_ROLE}`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of [...TABLES].reverse()) await q.query(`DROP TABLE lending.${table}`);
    await q.query(balanceCheck([]));
    await q.query(`ALTER TABLE lending.ledger_transactions DROP CONSTRAINT ledger_transactions_kind_check,
      ADD CONSTRAINT ledger_transactions_kind_check CHECK (${sqlIn('kind', OLD_KINDS)})`);
    await q.query(`ALTER TABLE lending.ledger_lines DROP CONSTRAINT ledger_lines_account_check,
      ADD CONSTRAINT ledger_lines_account_check CHECK (${sqlIn('account', OLD_ACCOUNTS)})`);
  }
}
