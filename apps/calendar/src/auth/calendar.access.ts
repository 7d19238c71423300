import { defineAccess, type KeyPrincipal } from '@platform/auth';
import type { Permission } from '../grants/permissions';
import type { AccountId, ProductId } from '../tenancy/tenant-ids';

/**
 * What a calendar caller may do on an account. A product key holds the integration permissions the
 * account owner granted (Read, Push, FreeBusy, Share); a person holds `ViewTeams` and Read/FreeBusy
 * (their own and their teams' events, redacted by the query), and the account owner also `Share` and
 * `ManageAccess`. `ViewTeams` and `ManageAccess` cannot be granted to a product.
 */
export const CALENDAR_SCOPES = ['Read', 'Push', 'FreeBusy', 'Share', 'ViewTeams', 'ManageAccess'] as const;
export type CalendarScope = (typeof CALENDAR_SCOPES)[number];

export const CalendarAccess = defineAccess({
  schemes: ['product-key', 'platform-session'],
  scopes: CALENDAR_SCOPES,
});

const MEMBER_SCOPES: readonly CalendarScope[] = ['Read', 'FreeBusy', 'ViewTeams'];
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
