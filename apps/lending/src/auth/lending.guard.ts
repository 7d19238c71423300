import { Injectable, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import { DataSource } from 'typeorm';
import {
  DenyByDefaultGuard,
  assertScopes,
  authenticateApiKey,
  headerValue,
  type RequestWithPrincipal,
} from '@platform/auth';
import { CommonError, commonError } from '@platform/envelope';
import { PartnerKey } from '../tenancy/partner-key.entity';
import { asOrganizationId, type OrganizationId } from '../tenancy/tenant-ids';

export interface PartnerPrincipal {
  kind: 'partner';
  organizationId: OrganizationId;
  keyId: string;
  scopes: string[];
}

/** `partner-key`: `X-Api-Key` + `Organization-Id`; the key must belong to that organization and hold the route's scopes. */
@Injectable()
export class LendingGuard extends DenyByDefaultGuard {
  constructor(
    reflector: Reflector,
    @InjectDataSource() private readonly ds: DataSource,
  ) {
    super(reflector);
  }

  protected async authenticate(context: ExecutionContext, schemes: string[]): Promise<boolean> {
    if (!schemes.includes('partner-key')) throw commonError(CommonError.UNAUTHENTICATED);
    const req = context.switchToHttp().getRequest<Request & RequestWithPrincipal<PartnerPrincipal>>();
    const key = await authenticateApiKey(headerValue(req.headers, 'x-api-key'), 'X-Api-Key', (keyId) =>
      this.ds.getRepository(PartnerKey).findOneBy({ keyId }),
    );
    const organizationId = headerValue(req.headers, 'organization-id');
    if (!organizationId) throw commonError(CommonError.TENANT_HEADER_MISSING, { header: 'Organization-Id' });
    if (organizationId !== key.organizationId)
      throw commonError(CommonError.TENANT_MISMATCH, { header: 'Organization-Id' });
    assertScopes(this.reflector, context, key.scopes);
    req.principal = {
      kind: 'partner',
      organizationId: asOrganizationId(organizationId),
      keyId: key.keyId,
      scopes: key.scopes,
    };
    return true;
  }
}
