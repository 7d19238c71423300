import { Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { CommonError, commonError } from '@platform/envelope';
import { DenyByDefaultGuard } from './deny-by-default.guard';
import type { Principal } from './principal.decorator';

/**
 * For apps that serve only anonymous routes (gateway probes, public status, relay metrics): `@Public()`
 * passes, anything else is refused.
 */
@Injectable()
export class PublicOnlyGuard extends DenyByDefaultGuard {
  constructor(reflector: Reflector) {
    super(reflector);
  }

  protected async authenticate(): Promise<Principal> {
    throw commonError(CommonError.UNAUTHENTICATED);
  }
}
