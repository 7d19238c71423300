import { Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DenyByDefaultGuard } from '@platform/auth';
import { CommonError, commonError } from '@platform/envelope';

/**
 * The gateway authenticates nothing itself: each service checks its own credentials. Its own routes
 * are public probes; anything else is refused.
 */
@Injectable()
export class GatewayGuard extends DenyByDefaultGuard {
  constructor(reflector: Reflector) {
    super(reflector);
  }

  protected async authenticate(): Promise<boolean> {
    throw commonError(CommonError.UNAUTHENTICATED);
  }
}
