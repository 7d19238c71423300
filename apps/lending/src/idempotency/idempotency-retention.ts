import { Injectable } from '@nestjs/common';
import { OwnersRepository, type OrganizationId } from '@platform/tenancy';
import { TenantData } from '../tenancy/tenant-data';
import { TenantPurgeJob } from '../tenancy/tenant-purge.job';
import { IdempotencyKeysRepository } from '@platform/idempotency';

/**
 * Purges expired Idempotency-Keys (kept LENDING_IDEMPOTENCY_TTL_HOURS, at least 24) hourly on every
 * replica (TenantPurgeJob), per organization in its own tenant transaction (so in the
 * database-per-tenant mode each tenant's database), in batches. A key met expired by a request is
 * deleted by that request too (IdempotencyKeysRepository.live), so the purge only bounds the table's
 * size.
 */
@Injectable()
export class IdempotencyRetention extends TenantPurgeJob {
  constructor(
    owners: OwnersRepository,
    private readonly data: TenantData,
    private readonly keys: IdempotencyKeysRepository,
  ) {
    super('IdempotencyRetention', owners);
  }

  /** A key goes once it has expired. */
  protected cutoff(now: Date): Date {
    return now;
  }

  protected purgeBatch(organizationId: OrganizationId, now: Date, batch: number): Promise<number> {
    return this.data.run(organizationId, (tx) => this.keys.purgeBatch(organizationId, now, batch, tx));
  }

  protected purged(deleted: number): string {
    return `purged ${deleted} expired idempotency keys`;
  }
}
