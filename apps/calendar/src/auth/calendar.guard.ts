import { Injectable, type ExecutionContext } from '@nestjs/common';
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
import { CalendarConfig } from '../config/calendar.config';
import { CommonError, commonError } from '@platform/envelope';
import { ProductKey } from '../tenancy/product-key.entity';
import { asAccountId, asProductId, type AccountId, type ProductId } from '../tenancy/tenant-ids';

export interface PersonPrincipal {
  kind: 'person';
  subject: string;
  accountId: AccountId;
  teams: string[];
}

export interface ProductPrincipal {
  kind: 'product';
  productId: ProductId;
  accountId: AccountId;
  keyId: string;
}

/**
 * Calendar's global guard.
 * - `product-key`: `API_KEY` + `ProductId` + `AccountId` headers; the key must be live and belong to the
 *   product it claims to be.
 * - `platform-session`: `PlatformSession` header, a JWT of the identity provider verified against the
 *   configured JWKS or public key (issuer, audience, expiry); the account comes from its `account_id`.
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
    const req = context
      .switchToHttp()
      .getRequest<Request & RequestWithPrincipal<ProductPrincipal | PersonPrincipal>>();
    if (schemes.includes('product-key') && headerValue(req.headers, 'api_key')) {
      req.principal = await this.productKey(req);
      return true;
    }
    if (schemes.includes('platform-session') && headerValue(req.headers, 'platformsession')) {
      req.principal = await this.session(headerValue(req.headers, 'platformsession') as string);
      return true;
    }
    if (schemes.includes('product-key'))
      throw commonError(CommonError.API_KEY_MISSING, { header: 'API_KEY' });
    throw commonError(CommonError.UNAUTHENTICATED);
  }

  private async session(token: string): Promise<PersonPrincipal> {
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
    try {
      const s = await this.verifier(token);
      if (!s.accountId) throw new Error('no account_id claim');
      return { kind: 'person', subject: s.subject, accountId: asAccountId(s.accountId), teams: s.teams };
    } catch {
      throw commonError(CommonError.SESSION_INVALID);
    }
  }

  private async productKey(req: Request): Promise<ProductPrincipal> {
    const key = await authenticateApiKey(headerValue(req.headers, 'api_key'), 'API_KEY', (keyId) =>
      this.ds.getRepository(ProductKey).findOneBy({ keyId }),
    );
    const productId = headerValue(req.headers, 'productid');
    const accountId = headerValue(req.headers, 'accountid');
    if (!productId) throw commonError(CommonError.TENANT_HEADER_MISSING, { header: 'ProductId' });
    if (!accountId) throw commonError(CommonError.TENANT_HEADER_MISSING, { header: 'AccountId' });
    if (productId !== key.productId) throw commonError(CommonError.TENANT_MISMATCH, { header: 'ProductId' });
    return {
      kind: 'product',
      productId: asProductId(productId),
      accountId: asAccountId(accountId),
      keyId: key.keyId,
    };
  }
}
