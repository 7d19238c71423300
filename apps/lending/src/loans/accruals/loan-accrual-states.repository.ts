import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { LoanAccrualState } from './loan-accrual-state.entity';

export type AccrualStateValues = Omit<LoanAccrualState, 'organizationId' | 'loanId' | 'updatedAt'>;

/** How far each loan's accruals have gone, always inside a TenantData transaction holding the loan's lock. */
@Injectable()
export class LoanAccrualStatesRepository extends TenantScopedRepository<LoanAccrualState, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, LoanAccrualState, 'organizationId');
  }

  of(organizationId: OrganizationId, loanId: string, tx: Tx): Promise<LoanAccrualState | null> {
    return this.findOne(organizationId, { loanId }, tx);
  }

  async save(organizationId: OrganizationId, loanId: string, v: AccrualStateValues, tx: Tx): Promise<void> {
    await this.sql(
      organizationId,
      `INSERT INTO loan_accrual_states AS s (organization_id, loan_id, started_through, accrued_through,
              interest_instalment_id, interest_cumulative, penalty_cumulative, penalty_run_start,
              penalty_run_base, overdue_since)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (organization_id, loan_id) DO UPDATE SET
         started_through = excluded.started_through, accrued_through = excluded.accrued_through,
         interest_instalment_id = excluded.interest_instalment_id,
         interest_cumulative = excluded.interest_cumulative, penalty_cumulative = excluded.penalty_cumulative,
         penalty_run_start = excluded.penalty_run_start, penalty_run_base = excluded.penalty_run_base,
         overdue_since = excluded.overdue_since, updated_at = now()`,
      [
        loanId,
        v.startedThrough,
        v.accruedThrough,
        v.interestInstalmentId,
        v.interestCumulative,
        v.penaltyCumulative,
        v.penaltyRunStart,
        v.penaltyRunBase,
        v.overdueSince,
      ],
      tx,
    );
  }
}
