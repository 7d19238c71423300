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

/**
 * Verification's credential schemes: `api-key` (X-API-Key + Service-Organization-Id) and `oauth` (a
 * short-lived bearer token exchanged for that key at POST /api/v1/oauth/token).
 */
export const VERIFICATION_SCHEMES = ['api-key', 'oauth'] as const;
export type VerificationScheme = (typeof VERIFICATION_SCHEMES)[number];

const access = defineAccess({ schemes: VERIFICATION_SCHEMES, scopes: VERIFICATION_SCOPES });

/**
 * Verification's typed access decorators. The spec gives both methods "the same API key and the same
 * access rights", so a route cannot take the key without its tokens: `Authenticated('api-key')`
 * declares both schemes (the route audit, the reference and the authorization walk see both).
 */
export const VerificationAccess = {
  ...access,
  Authenticated: (...schemes: [VerificationScheme, ...VerificationScheme[]]) =>
    access.Authenticated(
      ...(schemes.includes('api-key') && !schemes.includes('oauth')
        ? ([...schemes, 'oauth'] as [VerificationScheme, ...VerificationScheme[]])
        : schemes),
    ),
};

/**
 * An API key of an organization, presented as `X-API-Key` + `Service-Organization-Id` (scheme
 * `api-key`) or through a bearer token exchanged for it (scheme `oauth`, with the token's scopes).
 */
export type OrganizationPrincipal = KeyPrincipal<VerificationScope, OrganizationId>;
