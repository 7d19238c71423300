import { Injectable, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Request } from 'express';
import { DataSource } from 'typeorm';
import {
  DenyByDefaultGuard,
  assertScopes,
  authenticateTenantKey,
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
    const { key, tenantId } = await authenticateTenantKey(req.headers, {
      keyHeader: 'X-Api-Key',
      tenantHeader: 'Organization-Id',
      findByKeyId: (keyId) => this.ds.getRepository(PartnerKey).findOneBy({ keyId }),
      tenantOf: (k) => k.organizationId,
    });
    assertScopes(this.reflector, context, key.scopes);
    req.principal = {
      kind: 'partner',
      organizationId: asOrganizationId(tenantId),
      keyId: key.keyId,
      scopes: key.scopes,
    };
    return true;
  }
}
