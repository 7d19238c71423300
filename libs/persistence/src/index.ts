export {
  PersistenceModule,
  dataSourceOptions,
  migrationsAppliedAtStart,
  type ServiceDatabase,
  type ServiceDatabaseOptions,
} from './persistence.module';
export { logMigrationsApplied, migrateSchema, migrationsLine } from './migrate';
export { trackDataSourcePool } from './pool-metrics';
export { poolOf, poolRecordingPg } from './pg-pool';
export {
  TenantPools,
  inTenantTransaction,
  type TenantPoolsOptions,
  type TenantLease,
  type TenantIdentity,
} from './tenant-pools';
export { queryPrepared, statementName } from './prepared-statement';
export { inTransaction, Transactions, txManager, type IsolationLevel, type Tx } from './transaction';
export {
  TenantScopedRepository,
  TenantScopedTables,
  tenantRole,
  tenantSetting,
  type TenantWhere,
  type TenantColumn,
  type PageOptions,
} from './tenant-scoped.repository';
export {
  tenantTablePolicy,
  tenantRoleDdl,
  dropTenantTablePolicy,
  tenantIsolationMigration,
  tenantPoliciesMigration,
  type TenantTable,
} from './tenant-rls';
export { BatchWriter, type BatchWriterOptions } from './batch-writer';
export {
  withinCountLimit,
  lockCounted,
  COUNT_LOCK,
  type CountLimit,
  type CountLimitRunner,
  type CountedKind,
} from './count-limit';
export { AppPoolModule, AppPoolRepository } from './app-pool.repository';
export { runAdminCli, type AdminCommand, type AdminCliOptions } from './admin-cli';
export {
  PgSlidingWindowLimiter,
  rateLimitTableDdl,
  type RateLimitDecision,
  type SqlRunner,
} from './rate-limiter';
