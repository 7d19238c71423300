import { Injectable, SetMetadata, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import { DataSource } from 'typeorm';
import {
  DenyByDefaultGuard,
  authenticateApiKey,
  createSessionVerifier,
  headerValue,
  type RequestWithPrincipal,
  type SessionVerifier,
} from '@platform/auth';
import { CommonError, commonError } from '@platform/envelope';
import { CalendarConfig } from '../config/calendar.config';
import { CalendarError, calendarError } from '../events/event.errors';
import { REQUIRED_PERMISSION, type Permission } from '../grants/permissions';
import { asAccountId, asProductId, type AccountId, type ProductId } from '../tenancy/tenant-ids';

export interface PersonPrincipal {
  kind: 'person';
  subject: string;
  accountId: AccountId;
  isOwner: boolean;
}

export interface ProductPrincipal {
  kind: 'product';
  productId: ProductId;
  accountId: AccountId;
  keyId: string;
  isDefaultKey: boolean;
  /** Grants the account owner gave this product on this account. */
  permissions: Permission[];
}

export type CalendarPrincipal = ProductPrincipal | PersonPrincipal;

interface KeyRow {
  key_id: string;
  product_id: string;
  hash: string;
  revoked_at: Date | null;
  is_default: boolean;
  permissions: Permission[];
}

const OWNER_ONLY = 'calendar:owner-only';
/** Only the account owner's session may call the route (grants, teams). */
export const OwnerOnly = () => SetMetadata(OWNER_ONLY, true);

/**
 * Calendar's global guard.
 * - `product-key`: `API_KEY` + `ProductId` + `AccountId`; the key must be live and belong to that
 *   product, and the route's integration permission must have been granted on that account.
 * - `platform-session`: `PlatformSession`, a JWT of the identity provider verified against the
 *   configured JWKS or public key (issuer, audience, expiry). Account from `account_id`; the owner
 *   is the holder of the `owner` role (`roles` claim).
 */
@Injectable()
export class CalendarGuard extends DenyByDefaultGuard {
  private verifier?: SessionVerifier;

  constructor(
    reflector: Reflector,
    @InjectDataSource() private readonly ds: DataSource,
    private readonly cfg: CalendarConfig,
  ) {
    super(reflector);
  }

  protected async authenticate(context: ExecutionContext, schemes: string[]): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request & RequestWithPrincipal<CalendarPrincipal>>();
    const targets = [context.getHandler(), context.getClass()];
    const ownerOnly = this.reflector.getAllAndOverride<boolean>(OWNER_ONLY, targets) ?? false;
    if (schemes.includes('platform-session') && headerValue(req.headers, 'platformsession')) {
      const person = await this.session(req);
      if (ownerOnly && !person.isOwner) throw calendarError(CalendarError.OWNER_ONLY);
      req.principal = person;
      return true;
    }
    if (schemes.includes('product-key')) {
      const product = await this.productKey(req);
      const anyOf =
        this.reflector.getAllAndOverride<Permission[] | undefined>(REQUIRED_PERMISSION, targets) ?? [];
      if (anyOf.length && !anyOf.some((p) => product.permissions.includes(p))) {
        throw calendarError(
          CalendarError.GRANT_MISSING,
          { permission: anyOf.join(' / ') },
          { required: anyOf },
        );
      }
      req.principal = product;
      return true;
    }
    throw commonError(CommonError.UNAUTHENTICATED);
  }

  /**
   * One query finds the key and the grants its product holds on the addressed account; the hash and
   * tenant checks follow. Grants are read on every call, so a revoke is effective at once.
   */
  private async productKey(req: Request): Promise<ProductPrincipal> {
    const productId = headerValue(req.headers, 'productid');
    const accountId = headerValue(req.headers, 'accountid');
    const key = await authenticateApiKey(headerValue(req.headers, 'api_key'), 'API_KEY', async (keyId) => {
      const rows = (await this.ds.query(
        `SELECT k.key_id, k.product_id, k.hash, k.revoked_at, k.is_default,
                COALESCE(array_agg(g.permission) FILTER (WHERE g.permission IS NOT NULL), '{}') AS permissions
           FROM calendar.product_keys k
           LEFT JOIN calendar.integration_grants g ON g.product_id = k.product_id AND g.account_id = $2
          WHERE k.key_id = $1
          GROUP BY k.id`,
        [keyId, accountId ?? ''],
      )) as KeyRow[];
      const r = rows[0];
      return r ? { ...r, revokedAt: r.revoked_at } : null;
    });
    if (!productId) throw commonError(CommonError.TENANT_HEADER_MISSING, { header: 'ProductId' });
    if (!accountId) throw commonError(CommonError.TENANT_HEADER_MISSING, { header: 'AccountId' });
    if (productId !== key.product_id) throw commonError(CommonError.TENANT_MISMATCH, { header: 'ProductId' });
    return {
      kind: 'product',
      productId: asProductId(productId),
      accountId: asAccountId(accountId),
      keyId: key.key_id,
      isDefaultKey: key.is_default,
      permissions: key.permissions,
    };
  }

  private async session(req: Request): Promise<PersonPrincipal> {
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
      s = await this.verifier(headerValue(req.headers, 'platformsession') as string);
    } catch {
      throw commonError(CommonError.SESSION_INVALID);
    }
    if (!s.accountId) throw commonError(CommonError.SESSION_INVALID);
    const header = headerValue(req.headers, 'accountid');
    if (header && header !== s.accountId)
      throw commonError(CommonError.TENANT_MISMATCH, { header: 'AccountId' });
    const roles = Array.isArray(s.claims.roles) ? s.claims.roles.map(String) : [];
    return {
      kind: 'person',
      subject: s.subject,
      accountId: asAccountId(s.accountId),
      isOwner: roles.includes('owner'),
    };
  }
}
