import type { CanActivate, ExecutionContext } from '@nestjs/common';
import type { Reflector } from '@nestjs/core';
import { CommonError, DomainError, commonError } from '@platform/envelope';
import { ACCESS_RULE, AUTH_SCHEMES, IS_PUBLIC, missingScopes, type AccessRule } from './access.decorators';
import type { Principal, RequestWithPrincipal } from './principal.decorator';

/**
 * Base of every app's global guard: authentication and authorization, both denied by default.
 * Public routes pass. Any other route must declare its schemes (`Authenticated`) and its access rule
 * (scopes, or a named exemption); forgetting either closes the route instead of opening it. The app
 * only says how a credential becomes a principal with scopes.
 */
export abstract class DenyByDefaultGuard<P extends Principal = Principal> implements CanActivate {
  protected constructor(protected readonly reflector: Reflector) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    // Kafka handlers and other transports are not HTTP routes: they are authorised by the broker.
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const schemes = this.reflector.getAllAndOverride<string[]>(AUTH_SCHEMES, targets);
    if (!schemes?.length) throw commonError(CommonError.ROUTE_AUTH_UNDECLARED);
    const rule = this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_RULE, targets);
    if (!rule) throw commonError(CommonError.ROUTE_SCOPES_UNDECLARED);
    const principal = await this.authenticate(context, schemes);
    const missing = missingScopes(rule, principal.scopes);
    if (missing.length) throw this.denied(principal, missing, rule);
    // Attached only once allowed: what runs after the guard (handlers, the request log) sees only
    // callers that passed.
    context.switchToHttp().getRequest<RequestWithPrincipal<P>>().principal = principal;
    return true;
  }

  /** Returns the caller with the scopes it holds for this request, or throws a coded 401/403. */
  protected abstract authenticate(context: ExecutionContext, schemes: string[]): Promise<P>;

  /** The error for a caller lacking scopes; apps may word it in their own domain's terms. */
  protected denied(_principal: P, missing: string[], _rule: AccessRule): DomainError {
    return commonError(CommonError.SCOPE_MISSING, { scopes: missing.join(', ') }, { missingScopes: missing });
  }
}
