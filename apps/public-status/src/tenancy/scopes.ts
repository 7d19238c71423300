import { defineAccess, type KeyPrincipal } from '@platform/auth';
import type { BusinessId } from './business-id';

/**
 * Scopes of management keys: read everything of the business; change its catalog, publication and
 * manual states; post incidents; schedule and run maintenance.
 */
export const PUBLIC_STATUS_SCOPES = [
  'status:read',
  'status:write',
  'incidents:write',
  'maintenance:write',
] as const;
export type PublicStatusScope = (typeof PUBLIC_STATUS_SCOPES)[number];

export const PublicStatusAccess = defineAccess({ schemes: ['status-key'], scopes: PUBLIC_STATUS_SCOPES });

/** A management key of a business (`X-Api-Key` + `Business-Id`). */
export type StatusPrincipal = KeyPrincipal<PublicStatusScope, BusinessId>;
