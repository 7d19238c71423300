import { Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { DenyByDefaultGuard } from '@platform/auth';
import { CommonError, commonError } from '@platform/envelope';

/** The relay serves only public operational routes; anything else is refused. */
@Injectable()
export class RelayGuard extends DenyByDefaultGuard {
  constructor(reflector: Reflector) {
    super(reflector);
  }

  protected async authenticate(): Promise<boolean> {
    throw commonError(CommonError.UNAUTHENTICATED);
  }
}
