import { Module } from '@nestjs/common';
import { LendingTenancy } from '../tenancy/lending.tenancy';
import { TenantDataModule } from '../tenancy/tenant-data.module';
import { IdempotencyRetention } from './idempotency-retention';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';
import { IdempotentOperations } from './idempotent-operations';

/**
 * Idempotency-Key for lending's money operations and schedule changes: a route takes
 * `@Idempotency()` (and `@IdempotentOperation()` for the reference) and runs its work through
 * `IdempotentOperations.run`; expired keys are purged by IdempotencyRetention.
 */
@Module({
  imports: [LendingTenancy, TenantDataModule],
  providers: [IdempotencyKeysRepository, IdempotentOperations, IdempotencyRetention],
  exports: [IdempotentOperations],
})
export class IdempotencyModule {}
