import { defineAccess, type KeyPrincipal } from '@platform/auth';
import type { OrganizationId } from '@platform/tenancy';

/** Access scopes of partner keys, one read and one write scope per subject area of the spec. */
export const LENDING_AREAS = [
  'applications',
  'customers',
  'loans',
  'scoring',
  'compliance',
  'collection',
  'funding',
  'reporting',
] as const;

type Area = (typeof LENDING_AREAS)[number];

/**
 * The organization's own partner keys (docs/lending/api-keys.md): `keys:read` lists keys and their
 * request logs; `keys:admin` issues, reissues and revokes them, and a key it issues or reissues holds
 * only scopes the caller holds too.
 */
export const KEY_SCOPES = ['keys:read', 'keys:admin'] as const;

/**
 * The organization's webhook subscriptions (docs/lending/webhooks.md): `webhooks:read` lists them and
 * reads the delivery log; `webhooks:write` creates, changes, deletes them, rotates their secrets and
 * redrives dead deliveries. Not an area's scope: a subscription chooses events of every area.
 */
export const WEBHOOK_SCOPES = ['webhooks:read', 'webhooks:write'] as const;

/**
 * The spec's base paths (the gateway routes them, see libs/registry) and the scope area each belongs
 * to: AML is part of compliance, tax reports of reporting. The customer cabinet's public methods are
 * the borrower's own, not a partner key's, so they map to no partner scope.
 */
export const AREA_OF_PATH: Record<string, Area | 'keys' | 'webhooks' | 'borrower-cabinet'> = {
  '/applications': 'applications',
  '/customers': 'customers',
  '/loans': 'loans',
  '/scoring': 'scoring',
  '/compliance': 'compliance',
  '/aml': 'compliance',
  '/collection': 'collection',
  '/funding': 'funding',
  '/reporting': 'reporting',
  '/tax-reporting': 'reporting',
  '/public/customer': 'borrower-cabinet',
  '/apikeys': 'keys',
  '/webhooks': 'webhooks',
};
export type LendingScope =
  `${Area}:read` | `${Area}:write` | (typeof KEY_SCOPES)[number] | (typeof WEBHOOK_SCOPES)[number];

export const LENDING_SCOPES: readonly LendingScope[] = [
  ...LENDING_AREAS.flatMap((a) => [`${a}:read` as const, `${a}:write` as const]),
  ...KEY_SCOPES,
  ...WEBHOOK_SCOPES,
];

/** Lending's credential scheme and scopes: the only ones its routes can name. */
export const LendingAccess = defineAccess({ schemes: ['partner-key'], scopes: LENDING_SCOPES });

/** A partner key of an organization (`X-Api-Key` + `Organization-Id`). */
export type PartnerPrincipal = KeyPrincipal<LendingScope, OrganizationId>;
