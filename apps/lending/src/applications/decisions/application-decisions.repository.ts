import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { ApplicationDecision } from './application-decision.entity';

export type NewDecision = Omit<ApplicationDecision, 'id' | 'organizationId' | 'createdAt'>;

/** Underwriting decisions (append-only: the tenant role has no UPDATE or DELETE on them). */
@Injectable()
export class ApplicationDecisionsRepository extends TenantScopedRepository<
  ApplicationDecision,
  'organizationId'
> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, ApplicationDecision, 'organizationId');
  }

  async add(organizationId: OrganizationId, row: NewDecision, tx: Tx): Promise<void> {
    await this.insert(organizationId, [row], tx);
  }

  /** Oldest first. */
  forApplication(
    organizationId: OrganizationId,
    applicationId: string,
    tx: Tx,
  ): Promise<ApplicationDecision[]> {
    return this.find(organizationId, { applicationId }, { createdAt: 'ASC', id: 'ASC' }, tx);
  }
}
