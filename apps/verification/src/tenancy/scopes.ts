/**
 * The spec's eleven permission areas: checks, documents, provider checks and manual review, each read
 * and write (8); activity history and usage tracking, read only (2); organization settings (1).
 */
export const VERIFICATION_SCOPES = [
  'cases:read',
  'cases:write',
  'documents:read',
  'documents:write',
  'provider-checks:read',
  'provider-checks:write',
  'manual-review:read',
  'manual-review:write',
  'activity:read',
  'usage:read',
  'settings:manage',
];
