import { tenantIsolationMigration } from '@platform/persistence';

/**
 * Row-level security with FORCE on every table holding an account's rows (decision 0032): events,
 * journal, account cursors, grants, team members, the request log, attendees, and the account's keys.
 * A statement through TenantScopedRepository runs as calendar_tenant with `calendar.account_id` set,
 * so one that forgets its account condition still sees and writes only that account's rows.
 */
export const TenantIsolation1764300000000 = tenantIsolationMigration(
  'TenantIsolation1764300000000',
  'calendar',
  'account_id',
  [{ table: 'api_keys', column: 'owner_id' }],
);
