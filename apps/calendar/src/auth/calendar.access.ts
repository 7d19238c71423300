import { applyDecorators } from '@nestjs/common';
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
  // `dav`: what CalDAV clients send (decision 0041): `Authorization: Basic` with an app password, or
  // `Authorization: Bearer` / `PlatformSession` with a session; always a person.
  schemes: ['product-key', 'platform-session', 'rsvp-token', 'dav'],
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

/** A person of an account, by their `PlatformSession` or (scheme `dav` only) one of their app passwords. */
export interface PersonPrincipal {
  kind: 'person';
  subject: string;
  accountId: AccountId;
  /** Never for an app password: a device's password does not carry the owner's powers. */
  isOwner: boolean;
  scopes: readonly CalendarScope[];
  /** How the person signed in: a session (any scheme) or an app password (HTTP Basic, scheme `dav`). */
  via: 'session' | 'app-password';
}

export type CalendarPrincipal = ProductPrincipal | PersonPrincipal;

/**
 * A CalDAV route (on a controller or a handler): scheme `dav` only, so a person by app password
 * (Basic) or session (Bearer or `PlatformSession`), never a product key; the caller must hold `scopes`
 * (`Read` unless given: every person does; a writing handler may add `EditOwnEvents`). The handler
 * gets a `PersonPrincipal`. Failures are coded DomainErrors with their status: 401 (no credentials,
 * malformed or wrong ones: `UNAUTHENTICATED`, `CALENDAR_DAV_CREDENTIALS_INVALID`, `SESSION_INVALID`),
 * 429 with `Retry-After` (`CALENDAR_DAV_AUTH_RATE_LIMITED`).
 */
export const DavAccess = (...scopes: CalendarScope[]) =>
  applyDecorators(
    CalendarAccess.Authenticated('dav'),
    CalendarAccess.RequireScopes(
      ...((scopes.length ? scopes : ['Read']) as [CalendarScope, ...CalendarScope[]]),
    ),
  );

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
