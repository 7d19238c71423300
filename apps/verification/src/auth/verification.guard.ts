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
import { ApiKey } from '../tenancy/api-key.entity';
import { asOrganizationId, type OrganizationId } from '../tenancy/tenant-ids';

export interface OrganizationPrincipal {
  kind: 'organization';
  organizationId: OrganizationId;
  keyId: string;
  scopes: string[];
}

/** `api-key`: `X-API-Key` + `Service-Organization-Id`, the key's permission areas cover the route. */
@Injectable()
export class VerificationGuard extends DenyByDefaultGuard {
  constructor(
    reflector: Reflector,
    @InjectDataSource() private readonly ds: DataSource,
  ) {
    super(reflector);
  }

  protected async authenticate(context: ExecutionContext, schemes: string[]): Promise<boolean> {
    if (!schemes.includes('api-key')) throw commonError(CommonError.UNAUTHENTICATED);
    const req = context.switchToHttp().getRequest<Request & RequestWithPrincipal<OrganizationPrincipal>>();
    const { key, tenantId } = await authenticateTenantKey(req.headers, {
      keyHeader: 'X-API-Key',
      tenantHeader: 'Service-Organization-Id',
      findByKeyId: (keyId) => this.ds.getRepository(ApiKey).findOneBy({ keyId }),
      tenantOf: (k) => k.organizationId,
    });
    assertScopes(this.reflector, context, key.scopes);
    req.principal = {
      kind: 'organization',
      organizationId: asOrganizationId(tenantId),
      keyId: key.keyId,
      scopes: key.scopes,
    };
    return true;
  }
}
