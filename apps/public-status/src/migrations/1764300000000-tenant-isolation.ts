import { tenantIsolationMigration } from '@platform/persistence';

/**
 * Row-level security with FORCE on every table holding a business's rows (decision 0032): catalog,
 * state history, incidents, maintenances, uptime, monitoring checks and results, subscribers, and
 * the business's keys. A statement through TenantScopedRepository runs as public_status_tenant with
 * `public_status.business_id` set, so one that forgets its business condition still sees and writes
 * only that business's rows. The public pages and the cross-business jobs run as the migrating user,
 * which the `service_jobs` policy names.
 */
export const TenantIsolation1764300000000 = tenantIsolationMigration(
  'TenantIsolation1764300000000',
  'public_status',
  'business_id',
  [{ table: 'api_keys', column: 'owner_id' }],
);
