import { Module } from '@nestjs/common';
import { IdempotencyKeysRepository, IdempotentOperations } from '@platform/idempotency';
import { LendingConfig } from '../config/lending.config';
import { LendingTenancy } from '../tenancy/lending.tenancy';
import { TenantData } from '../tenancy/tenant-data';
import { TenantDataModule } from '../tenancy/tenant-data.module';
import { IdempotencyRetention } from './idempotency-retention';

/** How lending's reference describes the Idempotency-Key of a money operation or schedule change. */
export const MONEY_IDEMPOTENCY_KEY =
  'Your unique value for this operation (e.g. a UUID), kept at least 24 hours per organization: a repeat with the same request returns the first answer and moves no money again';

/**
 * Idempotency-Key for lending's money operations and schedule changes (@platform/idempotency): a route
 * takes `@Idempotency()` (and `@IdempotentOperation(MONEY_IDEMPOTENCY_KEY)` for the reference) and runs
 * its work through `IdempotentOperations.run`, in the organization's tenant transaction (TenantData),
 * waiting up to LENDING_IDEMPOTENCY_WAIT_MS for a request holding the same key; expired keys are purged
 * by IdempotencyRetention.
 */
@Module({
  imports: [LendingTenancy, TenantDataModule],
  providers: [
    IdempotencyKeysRepository,
    {
      provide: IdempotentOperations,
      inject: [IdempotencyKeysRepository, TenantData, LendingConfig],
      useFactory: (keys: IdempotencyKeysRepository, data: TenantData, cfg: LendingConfig) =>
        new IdempotentOperations(keys, {
          waitMs: cfg.LENDING_IDEMPOTENCY_WAIT_MS,
          ttlHours: cfg.LENDING_IDEMPOTENCY_TTL_HOURS,
          transaction: (organizationId, work) => data.run(organizationId, work),
        }),
    },
    IdempotencyRetention,
  ],
  exports: [IdempotentOperations],
})
export class IdempotencyModule {}
