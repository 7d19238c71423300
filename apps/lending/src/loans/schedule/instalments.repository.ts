import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, IsNull } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import type { PositionRow } from '../payments/payment-plan';
import { exactMinor } from '../ledger/money-range';
import type { AccrualStateValues } from '../accruals/loan-accrual-states.repository';
import type { Instalment } from '../math';
import { LoanInstalment } from './loan-instalment.entity';

/** Loan schedules, always inside a TenantData transaction holding the loan's row lock. */
@Injectable()
export class InstalmentsRepository extends TenantScopedRepository<LoanInstalment, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, LoanInstalment, 'organizationId');
  }

  /**
   * Adds instalments computed by the loan math, with the ids the caller gave them, as part of ledger
   * transaction `createdBy`: one statement whatever their number (columns as arrays, unnested).
   */
  async add(
    organizationId: OrganizationId,
    loanId: string,
    rows: readonly (Instalment & { id: string })[],
    createdBy: string,
    tx: Tx,
  ): Promise<void> {
    if (!rows.length) return;
    const col = <V>(f: (r: Instalment & { id: string }) => V) => rows.map(f);
    await this.sqlPrepared(
      organizationId,
      `INSERT INTO loan_instalments
         (id, organization_id, loan_id, number, period_start, due_date, principal, interest, fees, total,
          balance_after, created_by)
       SELECT u.id, $1, $2, u.number, u.period_start, u.due_date, u.principal, u.interest, u.fees, u.total,
              u.balance_after, $3
         FROM unnest($4::uuid[], $5::int[], $6::date[], $7::date[], $8::bigint[], $9::bigint[], $10::bigint[],
                     $11::bigint[], $12::bigint[])
           AS u(id, number, period_start, due_date, principal, interest, fees, total, balance_after)`,
      [
        loanId,
        createdBy,
        col((r) => r.id),
        col((r) => r.number),
        col((r) => r.periodStart),
        col((r) => r.dueDate),
        col((r) => r.principal),
        col((r) => r.interest),
        col((r) => r.fees),
        col((r) => r.total),
        col((r) => r.balanceAfter),
      ],
      tx,
    );
  }

  /** The schedule in force, by number. */
  current(organizationId: OrganizationId, loanId: string, tx: Tx): Promise<LoanInstalment[]> {
    return this.find(organizationId, { loanId, supersededBy: IsNull() }, { number: 'ASC' }, tx);
  }

  /** Rows by id, in force or not, by number (a schedule version's rows). */
  byIds(organizationId: OrganizationId, loanId: string, ids: string[], tx: Tx): Promise<LoanInstalment[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.find(organizationId, { loanId, id: In(ids) }, { number: 'ASC' }, tx);
  }

  /** Marks rows in force as replaced by transaction `by`. */
  async supersede(
    organizationId: OrganizationId,
    loanId: string,
    ids: string[],
    by: string,
    tx: Tx,
  ): Promise<number> {
    if (!ids.length) return 0;
    return this.update(
      organizationId,
      { loanId, supersededBy: IsNull(), id: In(ids) },
      { supersededBy: by },
      tx,
    );
  }

  /**
   * Undoes the schedule change of transaction `changedBy` as part of its reversal `reversal`: the rows
   * it added are superseded by the reversal, the rows it replaced are in force again.
   */
  async undoChange(
    organizationId: OrganizationId,
    loanId: string,
    changedBy: string,
    reversal: string,
    tx: Tx,
  ): Promise<void> {
    await this.update(
      organizationId,
      { loanId, createdBy: changedBy, supersededBy: IsNull() },
      { supersededBy: reversal },
      tx,
    );
    await this.update(organizationId, { loanId, supersededBy: changedBy }, { supersededBy: null }, tx);
  }

  /**
   * A loan's position in one round trip (LoanBook.position): the schedule in force, what was paid on
   * each instalment and what each has on the overdue accounts, every account's totals, and the last
   * transaction's value date. Sums travel as text and are read exactly (exactMinor).
   */
  async position(organizationId: OrganizationId, loanId: string, tx: Tx): Promise<PositionRead> {
    const [row] = (await this.sqlPrepared(
      organizationId,
      `SELECT
         (SELECT coalesce(json_agg(json_build_object(
                   'id', i.id, 'number', i.number, 'periodStart', i.period_start::text,
                   'dueDate', i.due_date::text, 'principal', i.principal::text, 'interest', i.interest::text,
                   'fees', i.fees::text, 'balanceAfter', i.balance_after::text) ORDER BY i.number), '[]')
            FROM loan_instalments i
           WHERE i.organization_id = $1 AND i.loan_id = $2 AND i.superseded_by IS NULL) AS rows,
         (SELECT coalesce(json_agg(json_build_object('account', a.account, 'debit', a.debit::text,
                   'credit', a.credit::text)), '[]')
            FROM (SELECT account, sum(debit) AS debit, sum(credit) AS credit FROM ledger_lines
                   WHERE organization_id = $1 AND loan_id = $2 GROUP BY account) a) AS totals,
         (SELECT coalesce(json_agg(json_build_object('id', b.instalment_id,
                   'principal', b.principal::text, 'interest', b.interest::text, 'fees', b.fees::text,
                   'overduePrincipal', b.overdue_principal::text, 'overdueInterest', b.overdue_interest::text,
                   'onOverdue', b.on_overdue > 0)), '[]')
            FROM (SELECT instalment_id,
                         sum(credit - debit) FILTER (WHERE account IN ('loan_principal', 'overdue_principal')) AS principal,
                         sum(credit - debit) FILTER (
                           WHERE account IN ('interest_receivable', 'interest_advance', 'overdue_interest')) AS interest,
                         sum(credit - debit) FILTER (WHERE account = 'fee_receivable') AS fees,
                         sum(debit - credit) FILTER (WHERE account = 'overdue_principal') AS overdue_principal,
                         sum(debit - credit) FILTER (WHERE account = 'overdue_interest') AS overdue_interest,
                         count(*) FILTER (WHERE account IN ('overdue_principal', 'overdue_interest')) AS on_overdue
                    FROM ledger_lines
                   WHERE organization_id = $1 AND loan_id = $2 AND instalment_id IS NOT NULL
                   GROUP BY instalment_id) b) AS by_instalment,
         (SELECT max(value_date)::text FROM ledger_transactions
           WHERE organization_id = $1 AND loan_id = $2) AS last_value_date,
         (SELECT json_build_object('startedThrough', s.started_through::text,
                   'accruedThrough', s.accrued_through::text, 'interestInstalmentId', s.interest_instalment_id,
                   'interestCumulative', s.interest_cumulative::text, 'penaltyCumulative', s.penalty_cumulative::text,
                   'penaltyRunStart', s.penalty_run_start::text, 'penaltyRunBase', s.penalty_run_base::text,
                   'overdueSince', s.overdue_since::text)
            FROM loan_accrual_states s WHERE s.organization_id = $1 AND s.loan_id = $2) AS accrual_state`,
      [loanId],
      tx,
    )) as {
      rows: Record<string, string | number>[];
      totals: { account: string; debit: string; credit: string }[];
      by_instalment: Record<string, string | boolean | null>[];
      last_value_date: string | null;
      accrual_state: Record<string, string | null> | null;
    }[];
    const n = (v: string | number | null | undefined, field: string) => exactMinor(v ?? null, field);
    return {
      rows: row.rows.map((r) => ({
        id: String(r.id),
        number: Number(r.number),
        periodStart: String(r.periodStart),
        dueDate: String(r.dueDate),
        principal: n(r.principal, 'principal'),
        interest: n(r.interest, 'interest'),
        fees: n(r.fees, 'fees'),
        balanceAfter: n(r.balanceAfter, 'balanceAfter'),
      })),
      totals: row.totals.map((t) => ({
        account: t.account,
        debit: n(t.debit, 'debit'),
        credit: n(t.credit, 'credit'),
      })),
      byInstalment: row.by_instalment.map((b) => ({
        id: String(b.id),
        paid: {
          principal: n(b.principal as string, 'paid'),
          interest: n(b.interest as string, 'paid'),
          fees: n(b.fees as string, 'paid'),
        },
        overdue: {
          principal: n(b.overduePrincipal as string, 'overdue'),
          interest: n(b.overdueInterest as string, 'overdue'),
        },
        onOverdue: b.onOverdue === true,
      })),
      lastValueDate: row.last_value_date,
      accrualState: row.accrual_state && {
        startedThrough: String(row.accrual_state.startedThrough),
        accruedThrough: String(row.accrual_state.accruedThrough),
        interestInstalmentId: row.accrual_state.interestInstalmentId,
        interestCumulative: String(row.accrual_state.interestCumulative),
        penaltyCumulative: String(row.accrual_state.penaltyCumulative),
        penaltyRunStart: row.accrual_state.penaltyRunStart,
        penaltyRunBase: n(row.accrual_state.penaltyRunBase, 'penaltyRunBase'),
        overdueSince: row.accrual_state.overdueSince,
      },
    };
  }
}

/** What InstalmentsRepository.position reads (LoanBook makes the LoanPosition of it). */
export interface PositionRead {
  rows: Omit<PositionRow, 'paid'>[];
  totals: { account: string; debit: number; credit: number }[];
  byInstalment: {
    id: string;
    paid: { principal: number; interest: number; fees: number };
    overdue: { principal: number; interest: number };
    /** Whether any line of the instalment is on an overdue account. */
    onOverdue: boolean;
  }[];
  lastValueDate: string | null;
  /** How far the loan's accruals have gone (null before the first catch-up). */
  accrualState: AccrualStateValues | null;
}
