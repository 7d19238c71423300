import { tenantIsolationMigration } from '@platform/persistence';

/**
 * Row-level security with FORCE on every table holding an organization's rows (decision 0032): cases
 * and their history, tokens, idempotency keys, documents, checks, summaries, reviews, reports,
 * settings, access tokens, the activity log, and the organization's keys. A statement through
 * TenantScopedRepository runs as verification_tenant with `verification.organization_id` set, so one
 * that forgets its organization condition still sees and writes only that organization's rows.
 */
export const TenantIsolation1764300000000 = tenantIsolationMigration(
  'TenantIsolation1764300000000',
  'verification',
  'organization_id',
  [{ table: 'api_keys', column: 'owner_id' }],
);
