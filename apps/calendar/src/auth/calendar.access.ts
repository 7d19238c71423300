import { defineAccess, type KeyPrincipal } from '@platform/auth';
import type { Permission } from '../grants/permissions';
import type { AccountId, ProductId } from '../tenancy/tenant-ids';

/**
 * What a calendar caller may do on an account. A product key holds the integration permissions the
 * account owner granted (Read, Push, FreeBusy, Share); a person holds `ViewTeams` and Read/FreeBusy
 * (their own and their teams' events, redacted by the query) and `EditOwnEvents` (conference rooms and
 * invitations of events they own, checked by the handler), and the account owner also `Share` and
 * `ManageAccess`. `ViewTeams`, `EditOwnEvents` and `ManageAccess` cannot be granted to a product.
 */
export const CALENDAR_SCOPES = [
  'Read',
  'Push',
  'FreeBusy',
  'Share',
  'ViewTeams',
  'EditOwnEvents',
  'ManageAccess',
] as const;
export type CalendarScope = (typeof CALENDAR_SCOPES)[number];

export const CalendarAccess = defineAccess({
  // `rsvp-token`: no credential header at all; the signed token in the body is checked by the handler.
  schemes: ['product-key', 'platform-session', 'rsvp-token'],
  scopes: CALENDAR_SCOPES,
});

const MEMBER_SCOPES: readonly CalendarScope[] = ['Read', 'FreeBusy', 'ViewTeams', 'EditOwnEvents'];
const OWNER_SCOPES: readonly CalendarScope[] = [...MEMBER_SCOPES, 'Share', 'ManageAccess'];

export const personScopes = (isOwner: boolean): readonly CalendarScope[] =>
  isOwner ? OWNER_SCOPES : MEMBER_SCOPES;

/** A product's key acting on one account; its scopes are the permissions granted there. */
export interface ProductPrincipal extends KeyPrincipal<Permission, ProductId> {
  productId: ProductId;
  accountId: AccountId;
}

/** A person of an account, by their `PlatformSession`. */
export interface PersonPrincipal {
  kind: 'person';
  subject: string;
  accountId: AccountId;
  isOwner: boolean;
  scopes: readonly CalendarScope[];
}

export type CalendarPrincipal = ProductPrincipal | PersonPrincipal;

/**
 * An anonymous caller of a route that accepts `rsvp-token`: an external guest whose only credential is
 * the signed, single-purpose token in the body. Holds no scope and no account.
 */
export interface GuestPrincipal {
  kind: 'guest';
  scopes: readonly CalendarScope[];
}

/** Whoever the guard lets through. */
export type CalendarCaller = CalendarPrincipal | GuestPrincipal;
