import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, QueryFailedError } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { Loan } from './loan.entity';

export type NewLoan = Omit<Loan, 'id' | 'organizationId' | 'createdAt' | 'updatedAt'>;
export type LoanChange = Partial<
  Pick<Loan, 'status' | 'disbursedOn' | 'closedOn' | 'annualRate' | 'scheduleType'>
>;

/** A CreateLoan the unique (organization, application) refused: the application has its loan. */
export const APPLICATION_HAS_LOAN = 'application_has_loan' as const;

/** Loan contracts, always inside a TenantData transaction. */
@Injectable()
export class LoansRepository extends TenantScopedRepository<Loan, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, Loan, 'organizationId');
  }

  byId(organizationId: OrganizationId, id: string, tx: Tx): Promise<Loan | null> {
    return this.findOne(organizationId, { id }, tx);
  }

  byApplication(organizationId: OrganizationId, applicationId: string, tx: Tx): Promise<Loan | null> {
    return this.findOne(organizationId, { applicationId }, tx);
  }

  /**
   * The loan, locked until the transaction ends: every money operation and status move of a loan
   * takes this lock first, so they happen one after the other and each sees the ledger as the
   * previous one left it.
   */
  lock(organizationId: OrganizationId, id: string, tx: Tx): Promise<Loan | null> {
    return this.select(
      organizationId,
      'l',
      (q) => q.andWhere('l.id = :id', { id }).setLock('pessimistic_write').getOne(),
      tx,
    );
  }

  /**
   * The loan locked like `lock`, or null when another transaction holds it (FOR UPDATE SKIP LOCKED):
   * the accruals job on one replica passes over a loan another replica, or an operation, is working on.
   */
  claim(organizationId: OrganizationId, id: string, tx: Tx): Promise<Loan | null> {
    return this.select(
      organizationId,
      'l',
      (q) =>
        q.andWhere('l.id = :id', { id }).setLock('pessimistic_write').setOnLocked('skip_locked').getOne(),
      tx,
    );
  }

  /** Newest first; the id breaks ties so pages never overlap. */
  pageOf(
    organizationId: OrganizationId,
    filter: { status?: string; customerId?: string; applicationId?: string },
    offset: number,
    limit: number,
    tx: Tx,
  ): Promise<[Loan[], number]> {
    const where = {
      ...(filter.status ? { status: filter.status as Loan['status'] } : {}),
      ...(filter.customerId ? { customerId: filter.customerId } : {}),
      ...(filter.applicationId ? { applicationId: filter.applicationId } : {}),
    };
    return this.page(organizationId, where, { order: { createdAt: 'DESC', id: 'ASC' }, offset, limit }, tx);
  }

  async create(
    organizationId: OrganizationId,
    row: NewLoan,
    tx: Tx,
  ): Promise<string | typeof APPLICATION_HAS_LOAN> {
    try {
      const [created] = await this.insertReturning(organizationId, [row], tx);
      return created.id;
    } catch (err) {
      const driver = (err instanceof QueryFailedError ? err.driverError : undefined) as
        { code?: string; constraint?: string } | undefined;
      if (driver?.code === '23505' && driver.constraint === 'loans_application_key')
        return APPLICATION_HAS_LOAN;
      throw err;
    }
  }

  async change(organizationId: OrganizationId, id: string, set: LoanChange, tx: Tx): Promise<void> {
    await this.update(organizationId, { id }, { ...set, updatedAt: () => 'now()' }, tx);
  }
}
