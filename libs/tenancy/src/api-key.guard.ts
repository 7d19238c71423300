import { Inject, Injectable, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { DenyByDefaultGuard, type KeyPrincipal } from '@platform/auth';
import { CommonError, commonError } from '@platform/envelope';
import { KeyAuthenticator } from './key-authenticator.service';
import { TENANCY_OPTIONS, type TenancyOptions } from './tenancy.options';

/**
 * The global guard of a service whose callers are API keys of a tenant (lending, verification): the
 * configured key and tenant headers, then the route's scopes (checked by the base guard).
 */
@Injectable()
export class ApiKeyGuard extends DenyByDefaultGuard<KeyPrincipal> {
  constructor(
    reflector: Reflector,
    private readonly authenticator: KeyAuthenticator,
    @Inject(TENANCY_OPTIONS) private readonly options: TenancyOptions,
  ) {
    super(reflector);
  }

  protected async authenticate(context: ExecutionContext, schemes: string[]): Promise<KeyPrincipal> {
    if (!schemes.includes(this.options.scheme)) throw commonError(CommonError.UNAUTHENTICATED);
    return this.authenticator.authenticate(context.switchToHttp().getRequest<Request>().headers);
  }
}
