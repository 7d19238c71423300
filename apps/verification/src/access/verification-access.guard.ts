import { Injectable, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { DenyByDefaultGuard, headerValue } from '@platform/auth';
import { CommonError, commonError } from '@platform/envelope';
import { KeyAuthenticator, asOrganizationId } from '@platform/tenancy';
import type { OrganizationPrincipal, VerificationScope } from '../tenancy/scopes';
import { IpAllowlistService } from './ip-allowlist.service';
import { OAuthService } from './oauth.service';

const BEARER = /^bearer\s+(.*)$/i;

/**
 * Verification's global guard (deny by default, libs/auth): `Authorization: Bearer <token>` for routes
 * that take `oauth`, else `X-API-Key` + `Service-Organization-Id` for routes that take `api-key`. The
 * organization's IP allowlist comes first: for a key, the organization the header names is checked
 * before the key is even looked up; for a token, as soon as the token names its organization.
 */
@Injectable()
export class VerificationAccessGuard extends DenyByDefaultGuard<OrganizationPrincipal> {
  constructor(
    reflector: Reflector,
    private readonly keys: KeyAuthenticator,
    private readonly oauth: OAuthService,
    private readonly allowlist: IpAllowlistService,
  ) {
    super(reflector);
  }

  protected async authenticate(context: ExecutionContext, schemes: string[]): Promise<OrganizationPrincipal> {
    const req = context.switchToHttp().getRequest<Request>();
    const address = this.allowlist.addressOf(req);
    const bearer = BEARER.exec(headerValue(req.headers, 'authorization') ?? '');
    if (bearer && schemes.includes('oauth'))
      return this.oauth.authenticate(bearer[1].trim(), req.headers, address);
    if (schemes.includes('api-key')) {
      const org = headerValue(req.headers, 'service-organization-id');
      if (org) await this.allowlist.enforce(asOrganizationId(org), address);
      const key = await this.keys.authenticate(req.headers);
      return { ...key, ownerId: asOrganizationId(key.ownerId), scopes: key.scopes as VerificationScope[] };
    }
    throw commonError(CommonError.UNAUTHENTICATED);
  }
}
