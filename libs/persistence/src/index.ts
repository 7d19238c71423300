export { PersistenceModule, dataSourceOptions, type ServiceDatabaseOptions } from './persistence.module';
export { migrateSchema } from './migrate';
export { inTransaction, type IsolationLevel } from './transaction';
export { runAdminCli, type AdminCommand } from './admin-cli';
export {
  PgSlidingWindowLimiter,
  rateLimitTableDdl,
  type RateLimitDecision,
  type SqlRunner,
} from './rate-limiter';
