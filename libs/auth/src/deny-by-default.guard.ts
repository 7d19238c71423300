import type { CanActivate, ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { CommonError, commonError } from '@platform/envelope';
import { AUTH_SCHEMES, IS_PUBLIC } from './access.decorators';

/**
 * Base of every app's global guard. Public routes pass; routes declaring schemes are handed to
 * `authenticate`; a route that declares nothing is refused, so forgetting a decorator closes a route
 * instead of opening it.
 */
export abstract class DenyByDefaultGuard implements CanActivate {
  protected constructor(protected readonly reflector: Reflector) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    // Kafka handlers and other transports are not HTTP routes: they are authorised by the broker.
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const schemes = this.reflector.getAllAndOverride<string[]>(AUTH_SCHEMES, targets);
    if (!schemes?.length) throw commonError(CommonError.ROUTE_AUTH_UNDECLARED);
    return this.authenticate(context, schemes);
  }

  /** Returns true or throws a coded DomainError (401/403). */
  protected abstract authenticate(context: ExecutionContext, schemes: string[]): Promise<boolean>;
}
