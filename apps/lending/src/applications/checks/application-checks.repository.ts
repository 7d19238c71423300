import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { ApplicationCheck } from './application-check.entity';
import type { CheckStatus, CheckStep } from './check-steps';

export interface StepResult {
  status: CheckStatus;
  result: Record<string, unknown> | null;
  reasonCode: string | null;
}

/** The check steps of applications; the caller holds the application's row lock when it claims. */
@Injectable()
export class ApplicationChecksRepository extends TenantScopedRepository<ApplicationCheck, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, ApplicationCheck, 'organizationId');
  }

  forApplication(organizationId: OrganizationId, applicationId: string, tx: Tx): Promise<ApplicationCheck[]> {
    return this.find(organizationId, { applicationId }, { step: 'ASC' }, tx);
  }

  /** The steps of the applications given, for list views. */
  async forApplications(
    organizationId: OrganizationId,
    applicationIds: string[],
    tx: Tx,
  ): Promise<ApplicationCheck[]> {
    if (!applicationIds.length) return [];
    return this.select(
      organizationId,
      'c',
      (q) => q.andWhere('c.application_id IN (:...ids)', { ids: applicationIds }).getMany(),
      tx,
    );
  }

  /** A fresh set of pending steps (a new run, or one taking over a run that died). */
  async reset(
    organizationId: OrganizationId,
    applicationId: string,
    steps: { step: CheckStep; provider: string }[],
    tx: Tx,
  ): Promise<void> {
    await this.delete(organizationId, { applicationId }, tx);
    await this.insert(
      organizationId,
      steps.map((s) => ({ applicationId, step: s.step, provider: s.provider, status: 'pending' as const })),
      tx,
    );
  }

  /** Marks the step running and counts the attempt; returns the attempt's number. */
  async start(
    organizationId: OrganizationId,
    applicationId: string,
    step: CheckStep,
    tx: Tx,
  ): Promise<number> {
    await this.update(
      organizationId,
      { applicationId, step },
      { status: 'running', attempts: () => 'attempts + 1', startedAt: () => 'now()', completedAt: null },
      tx,
    );
    const row = await this.findOne(organizationId, { applicationId, step }, tx);
    return row?.attempts ?? 1;
  }

  async finish(
    organizationId: OrganizationId,
    applicationId: string,
    step: CheckStep,
    outcome: StepResult,
    tx: Tx,
  ): Promise<void> {
    await this.update(
      organizationId,
      { applicationId, step },
      {
        status: outcome.status,
        result: outcome.result as never,
        reasonCode: outcome.reasonCode,
        completedAt: () => 'now()',
      },
      tx,
    );
  }
}
