import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, QueryFailedError } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { LoanProduct } from './loan-product.entity';

export type NewLoanProduct = Omit<
  LoanProduct,
  'id' | 'organizationId' | 'version' | 'createdAt' | 'updatedAt'
>;
export type LoanProductChange = Partial<NewLoanProduct>;

/** A write the organization's unique product code refused. */
export const PRODUCT_CODE_TAKEN = 'product_code_taken' as const;

function isCodeTaken(err: unknown): boolean {
  const driver = (err instanceof QueryFailedError ? err.driverError : undefined) as
    { code?: string; constraint?: string } | undefined;
  return driver?.code === '23505' && driver.constraint === 'loan_products_code_key';
}

/** Loan products, always inside a TenantData transaction. */
@Injectable()
export class LoanProductsRepository extends TenantScopedRepository<LoanProduct, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, LoanProduct, 'organizationId');
  }

  byId(organizationId: OrganizationId, id: string, tx: Tx): Promise<LoanProduct | null> {
    return this.findOne(organizationId, { id }, tx);
  }

  /** The product with this code (what an application's `productCode` names), or null. */
  byCode(organizationId: OrganizationId, code: string, tx: Tx): Promise<LoanProduct | null> {
    return this.findOne(organizationId, { code }, tx);
  }

  /** The product, locked for a change until the transaction ends. */
  lock(organizationId: OrganizationId, id: string, tx: Tx): Promise<LoanProduct | null> {
    return this.select(
      organizationId,
      'p',
      (q) => q.andWhere('p.id = :id', { id }).setLock('pessimistic_write').getOne(),
      tx,
    );
  }

  /** Newest first; the id breaks ties so pages never overlap. */
  pageOf(
    organizationId: OrganizationId,
    filter: { active?: boolean; currency?: string },
    offset: number,
    limit: number,
    tx: Tx,
  ): Promise<[LoanProduct[], number]> {
    const where = {
      ...(filter.active !== undefined ? { active: filter.active } : {}),
      ...(filter.currency ? { currency: filter.currency } : {}),
    };
    return this.page(organizationId, where, { order: { createdAt: 'DESC', id: 'ASC' }, offset, limit }, tx);
  }

  async create(
    organizationId: OrganizationId,
    row: NewLoanProduct,
    tx: Tx,
  ): Promise<string | typeof PRODUCT_CODE_TAKEN> {
    try {
      const [created] = await this.insertReturning(organizationId, [row], tx);
      return created.id;
    } catch (err) {
      if (isCodeTaken(err)) return PRODUCT_CODE_TAKEN;
      throw err;
    }
  }

  /** Applies the change and bumps the version. */
  async change(
    organizationId: OrganizationId,
    id: string,
    set: LoanProductChange,
    tx: Tx,
  ): Promise<void | typeof PRODUCT_CODE_TAKEN> {
    try {
      await this.update(
        organizationId,
        { id },
        {
          ...(set as QueryDeepPartialEntity<LoanProduct>),
          version: () => 'version + 1',
          updatedAt: () => 'now()',
        },
        tx,
      );
    } catch (err) {
      if (isCodeTaken(err)) return PRODUCT_CODE_TAKEN;
      throw err;
    }
  }
}
