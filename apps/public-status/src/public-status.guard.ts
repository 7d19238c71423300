import { Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DenyByDefaultGuard } from '@platform/auth';
import { CommonError, commonError } from '@platform/envelope';

/** Public status is anonymous by design; a route not marked @Public() is refused. */
@Injectable()
export class PublicStatusGuard extends DenyByDefaultGuard {
  constructor(reflector: Reflector) {
    super(reflector);
  }

  protected async authenticate(): Promise<boolean> {
    throw commonError(CommonError.UNAUTHENTICATED);
  }
}
