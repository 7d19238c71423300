import { Injectable, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import {
  DenyByDefaultGuard,
  createSessionVerifier,
  headerValue,
  type AccessRule,
  type SessionVerifier,
} from '@platform/auth';
import { CommonError, commonError, type DomainError } from '@platform/envelope';
import { KeyAuthenticator } from '@platform/tenancy';
import { AppPasswordAuthenticator } from '../app-passwords/app-password-authenticator.service';
import { AppPasswordError, appPasswordError } from '../app-passwords/app-password.errors';
import { PERSONAL_PRODUCT } from '../caldav/personal-events';
import { CalendarConfig } from '../config/calendar.config';
import { CalendarError, calendarError } from '../events/event.errors';
import { GrantsRepository } from '../grants/grants.repository';
import { isPermission } from '../grants/permissions';
import { asAccountId, asProductId } from '../tenancy/tenant-ids';
import {
  personScopes,
  type CalendarCaller,
  type GuestPrincipal,
  type PersonPrincipal,
  type ProductPrincipal,
} from './calendar.access';
import { parseAuthorization } from './authorization-header';

const GUEST: GuestPrincipal = Object.freeze({ kind: 'guest', scopes: [] });

/**
 * Calendar's global guard.
 * - `product-key`: `API_KEY` + `ProductId` (the shared key check of libs/tenancy) + `AccountId`; the
 *   key's scopes on that account are the permissions its owner granted, read on every call so a
 *   revoke is effective at once.
 * - `platform-session`: `PlatformSession`, a JWT of the identity provider verified against the
 *   configured JWKS or public key (issuer, audience, expiry). Account from `account_id`; the owner is
 *   the holder of the `owner` role (`roles` claim).
 * - `rsvp-token`: nothing to check here (a guest without any header); only routes whose handler
 *   verifies a signed token from the body accept it, and a session sent along is still verified.
 * - `dav` (CalDAV, decision 0041): `Authorization: Basic` with an app password
 *   (AppPasswordAuthenticator, rate limited on failures), or a session as `Authorization: Bearer` or
 *   `PlatformSession`, verified as above. A malformed header is a 401, never a 500.
 */
@Injectable()
export class CalendarGuard extends DenyByDefaultGuard<CalendarCaller> {
  private verifier?: SessionVerifier;

  constructor(
    reflector: Reflector,
    private readonly keys: KeyAuthenticator,
    private readonly grants: GrantsRepository,
    private readonly cfg: CalendarConfig,
    private readonly appPasswords: AppPasswordAuthenticator,
  ) {
    super(reflector);
  }

  protected async authenticate(context: ExecutionContext, schemes: string[]): Promise<CalendarCaller> {
    const req = context.switchToHttp().getRequest<Request>();
    if (schemes.includes('dav')) {
      const dav = await this.dav(req);
      if (dav) return dav;
    }
    const session = headerValue(req.headers, 'platformsession');
    if (schemes.includes('platform-session') && session) return this.session(req, session);
    if (schemes.includes('product-key')) return this.productKey(req);
    if (schemes.includes('rsvp-token')) return GUEST;
    throw commonError(CommonError.UNAUTHENTICATED);
  }

  /** A person lacking a scope is not the account owner; a product lacks a grant. */
  protected override denied(p: CalendarCaller, _missing: string[], rule: AccessRule): DomainError {
    if (p.kind !== 'key') return calendarError(CalendarError.OWNER_ONLY);
    const required = rule.kind === 'exempt' ? [] : rule.scopes.filter(isPermission);
    return calendarError(CalendarError.GRANT_MISSING, { permission: required.join(' / ') }, { required });
  }

  private async productKey(req: Request): Promise<ProductPrincipal> {
    const key = await this.keys.authenticate(req.headers);
    const accountId = headerValue(req.headers, 'accountid');
    if (!accountId) throw commonError(CommonError.TENANT_HEADER_MISSING, { header: 'AccountId' });
    const productId = asProductId(key.ownerId);
    // `personal` holds people's own CalDAV events: no product writes as it, whatever key exists.
    if (productId === PERSONAL_PRODUCT) throw commonError(CommonError.UNAUTHENTICATED);
    const account = asAccountId(accountId);
    return {
      ...key,
      ownerId: productId,
      productId,
      accountId: account,
      scopes: await this.grants.permissionsOf(account, productId),
    };
  }

  /**
   * A CalDAV client's credential: `Authorization` (Basic app password or Bearer session), else a
   * `PlatformSession`; undefined when it sent neither, for the other schemes of the route to try.
   */
  private async dav(req: Request): Promise<PersonPrincipal | undefined> {
    const authorization = headerValue(req.headers, 'authorization');
    const credentials = authorization ? parseAuthorization(authorization) : undefined;
    switch (credentials?.kind) {
      case 'basic':
        return this.appPasswords.authenticate(req, credentials.username, credentials.password);
      case 'bearer':
        return this.session(req, credentials.token);
      case 'malformed':
        throw appPasswordError(AppPasswordError.DAV_CREDENTIALS_INVALID);
      case 'unsupported':
      case undefined: {
        const session = headerValue(req.headers, 'platformsession');
        return session ? this.session(req, session) : undefined;
      }
    }
  }

  private async session(req: Request, token: string): Promise<PersonPrincipal> {
    if (!this.verifier) {
      if (!this.cfg.SESSION_JWKS_URL && !this.cfg.SESSION_JWKS_JSON && !this.cfg.SESSION_PUBLIC_KEY_PEM) {
        throw commonError(CommonError.SESSION_INVALID);
      }
      this.verifier = createSessionVerifier({
        jwksUrl: this.cfg.SESSION_JWKS_URL || undefined,
        jwksJson: this.cfg.SESSION_JWKS_JSON || undefined,
        publicKeyPem: this.cfg.SESSION_PUBLIC_KEY_PEM || undefined,
        issuer: this.cfg.SESSION_ISSUER,
        audience: this.cfg.SESSION_AUDIENCE,
      });
    }
    let s: Awaited<ReturnType<SessionVerifier>>;
    try {
      s = await this.verifier(token);
    } catch {
      throw commonError(CommonError.SESSION_INVALID);
    }
    if (!s.accountId) throw commonError(CommonError.SESSION_INVALID);
    const header = headerValue(req.headers, 'accountid');
    if (header && header !== s.accountId)
      throw commonError(CommonError.TENANT_MISMATCH, { header: 'AccountId' });
    const isOwner = (Array.isArray(s.claims.roles) ? s.claims.roles.map(String) : []).includes('owner');
    return {
      kind: 'person',
      subject: s.subject,
      accountId: asAccountId(s.accountId),
      isOwner,
      scopes: personScopes(isOwner),
      via: 'session',
    };
  }
}
