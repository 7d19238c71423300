import { Injectable } from '@nestjs/common';
import { OwnersRepository, type OrganizationId } from '@platform/tenancy';
import { LendingConfig } from '../config/lending.config';
import { TenantData } from '../tenancy/tenant-data';
import { TenantPurgeJob } from '../tenancy/tenant-purge.job';
import { KeyRequestsRepository } from './key-requests.repository';

const DAY_MS = 86_400_000;

/**
 * Keeps the key request log to `LENDING_REQUEST_LOG_RETENTION_DAYS`: every replica purges hourly
 * (TenantPurgeJob), per organization in its own tenant transaction under row-level security (on the
 * control database, where the log lives in both tenancy modes: TenantData.withKeys), in batches of
 * the oldest rows. A replica that finds nothing old costs one index probe per organization.
 */
@Injectable()
export class KeyRequestLogRetention extends TenantPurgeJob {
  constructor(
    private readonly cfg: LendingConfig,
    owners: OwnersRepository,
    private readonly data: TenantData,
    private readonly requests: KeyRequestsRepository,
  ) {
    super('KeyRequestLogRetention', owners);
  }

  protected cutoff(now: Date): Date {
    return new Date(now.getTime() - this.cfg.LENDING_REQUEST_LOG_RETENTION_DAYS * DAY_MS);
  }

  protected purgeBatch(organizationId: OrganizationId, before: Date, batch: number): Promise<number> {
    return this.data.withKeys(organizationId, (tx) =>
      this.requests.purgeBatch(organizationId, before, batch, tx),
    );
  }

  protected purged(deleted: number, before: Date): string {
    return `purged ${deleted} key request log lines before ${before.toISOString()}`;
  }
}
