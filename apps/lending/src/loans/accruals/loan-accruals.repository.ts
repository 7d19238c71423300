import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { LoanAccrual } from './loan-accrual.entity';

export type NewLoanAccrual = Omit<LoanAccrual, 'id' | 'organizationId' | 'createdAt'>;

/** The accruals job's postings (loan_accruals), always inside a TenantData transaction. */
@Injectable()
export class LoanAccrualsRepository extends TenantScopedRepository<LoanAccrual, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, LoanAccrual, 'organizationId');
  }

  /**
   * Records a posting. The unique (organization, loan, day, kind) refuses a second one for the same day
   * and kind: the caller holds the loan's lock and read its state, so that would be a bug, and the
   * whole transaction (the ledger posting with it) fails rather than book twice.
   */
  async add(organizationId: OrganizationId, row: NewLoanAccrual, tx: Tx): Promise<void> {
    await this.insert(organizationId, [row], tx);
  }

  /** The loan's postings of one kind, oldest day first. */
  ofKind(organizationId: OrganizationId, loanId: string, kind: LoanAccrual['kind'], tx: Tx) {
    return this.find(organizationId, { loanId, kind }, { accrualDate: 'ASC' }, tx);
  }

  /**
   * Active loans of the organization whose accruals have not reached `asOf` (no state yet, or started
   * through an earlier day), by id after `afterId`: the job's work list. Read without locks; each loan is
   * then claimed on its own (FOR UPDATE SKIP LOCKED) and its state read again under the lock.
   */
  async behind(
    organizationId: OrganizationId,
    asOf: string,
    afterId: string | null,
    limit: number,
    tx: Tx,
  ): Promise<string[]> {
    const rows = (await this.sql(
      organizationId,
      `SELECT l.id FROM loans l
         LEFT JOIN loan_accrual_states s ON s.organization_id = l.organization_id AND s.loan_id = l.id
        WHERE l.organization_id = $1 AND l.status = 'active' AND l.disbursed_on < $2
          AND (s.loan_id IS NULL OR s.started_through < $2)
          AND ($3::uuid IS NULL OR l.id > $3::uuid)
        ORDER BY l.id LIMIT $4`,
      [asOf, afterId, limit],
      tx,
    )) as { id: string }[];
    return rows.map((r) => r.id);
  }
}
