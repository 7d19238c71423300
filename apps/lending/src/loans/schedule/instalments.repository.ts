import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, IsNull } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import type { Instalment } from '../math';
import { LoanInstalment } from './loan-instalment.entity';

/** Loan schedules, always inside a TenantData transaction holding the loan's row lock. */
@Injectable()
export class InstalmentsRepository extends TenantScopedRepository<LoanInstalment, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, LoanInstalment, 'organizationId');
  }

  /** Adds instalments computed by the loan math, as part of ledger transaction `createdBy`. */
  async add(
    organizationId: OrganizationId,
    loanId: string,
    rows: Instalment[],
    createdBy: string,
    tx: Tx,
  ): Promise<void> {
    await this.insert(
      organizationId,
      rows.map((r) => ({
        loanId,
        number: r.number,
        periodStart: r.periodStart,
        dueDate: r.dueDate,
        principal: r.principal,
        interest: r.interest,
        fees: r.fees,
        total: r.total,
        balanceAfter: r.balanceAfter,
        createdBy,
        supersededBy: null,
      })),
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
}
