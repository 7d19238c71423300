import { defineAccess, type KeyPrincipal } from '@platform/auth';
import type { OrganizationId } from '@platform/tenancy';

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
] as const;

export type VerificationScope = (typeof VERIFICATION_SCOPES)[number];

/** Verification's credential scheme and scopes: the only ones its routes can name. */
export const VerificationAccess = defineAccess({ schemes: ['api-key'], scopes: VERIFICATION_SCOPES });

/** An API key of an organization (`X-API-Key` + `Service-Organization-Id`). */
export type OrganizationPrincipal = KeyPrincipal<VerificationScope, OrganizationId>;
