import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { VerificationCase } from './verification-case.entity';

export interface CaseFilter {
  externalReferenceId?: string;
  status?: string;
  createdFrom?: Date;
  createdTo?: Date;
}

@Injectable()
export class CasesRepository extends TenantScopedRepository<VerificationCase, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, VerificationCase, 'organizationId');
  }

  /** Newest first; the id breaks ties so pages never overlap. `createdTo` is exclusive. */
  pageOf(
    organizationId: OrganizationId,
    filter: CaseFilter,
    offset: number,
    limit: number,
  ): Promise<[VerificationCase[], number]> {
    return this.select(organizationId, 'c', (q) => {
      if (filter.externalReferenceId)
        q.andWhere('c.external_reference_id = :ref', { ref: filter.externalReferenceId });
      if (filter.status !== undefined) q.andWhere('c.status = :status', { status: filter.status });
      if (filter.createdFrom) q.andWhere('c.created_at >= :from', { from: filter.createdFrom });
      if (filter.createdTo) q.andWhere('c.created_at < :to', { to: filter.createdTo });
      return q
        .orderBy('c.created_at', 'DESC')
        .addOrderBy('c.id', 'ASC')
        .skip(offset)
        .take(limit)
        .getManyAndCount();
    });
  }

  get(organizationId: OrganizationId, id: string, tx?: Tx): Promise<VerificationCase | null> {
    return this.findOne(organizationId, { id }, tx);
  }

  /** The case, locked until the transaction ends: its moves happen one at a time. */
  lock(organizationId: OrganizationId, id: string, tx: Tx): Promise<VerificationCase | null> {
    return this.select(
      organizationId,
      'c',
      (q) => q.andWhere('c.id = :id', { id }).setLock('pessimistic_write').getOne(),
      tx,
    );
  }

  async create(
    organizationId: OrganizationId,
    row: Omit<VerificationCase, 'organizationId' | 'id'>,
    tx: Tx,
  ): Promise<string> {
    const [created] = await this.insertReturning(organizationId, [row], tx);
    return created.id;
  }

  async change(
    organizationId: OrganizationId,
    id: string,
    set: Partial<Pick<VerificationCase, 'status' | 'updatedAt'>>,
    tx: Tx,
  ): Promise<void> {
    await this.update(organizationId, { id }, set, tx);
  }
}
