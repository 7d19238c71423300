import type { CanActivate, ExecutionContext } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import type { Reflector } from '@nestjs/core';
import {
  ACCEPTED_BODY_TYPES,
  CommonError,
  DomainError,
  bodyMediaTypeRefusal,
  commonError,
} from '@platform/envelope';
import { ACCESS_RULE, AUTH_SCHEMES, IS_PUBLIC, missingScopes, type AccessRule } from './access.decorators';
import type { Principal, RequestWithPrincipal } from './principal.decorator';

type Target = Parameters<Reflector['getAllAndOverride']>[1][number];

/** What a route declares about access, read from its decorators. */
interface RouteAccess {
  isPublic: boolean;
  schemes: string[] | undefined;
  rule: AccessRule | undefined;
  /** Media types the route's body may have besides JSON (`AcceptsBody`). */
  bodyTypes: string[] | undefined;
}

/**
 * Base of every app's global guard: authentication and authorization, both denied by default.
 * Public routes pass. Any other route must declare its schemes (`Authenticated`) and its access rule
 * (scopes, or a named exemption); forgetting either closes the route instead of opening it. The app
 * only says how a credential becomes a principal with scopes.
 */
export abstract class DenyByDefaultGuard<P extends Principal = Principal> implements CanActivate {
  /** Per handler, then per controller class (a handler may be inherited by several controllers). */
  private readonly routes = new WeakMap<object, WeakMap<object, RouteAccess>>();

  protected constructor(protected readonly reflector: Reflector) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    // Kafka handlers and other transports are not HTTP routes: they are authorised by the broker.
    if (context.getType() !== 'http') return true;
    const { isPublic, schemes, rule, bodyTypes } = this.routeAccess(context.getHandler(), context.getClass());
    // First, for every route of every app: a body that is not JSON, on a route that did not declare
    // its type, reached the route as no body at all (libs/envelope body-media-type).
    const refused = bodyMediaTypeRefusal(
      context.switchToHttp().getRequest<IncomingMessage>().headers,
      bodyTypes,
    );
    if (refused) throw refused;
    if (isPublic) return true;
    if (!schemes?.length) throw commonError(CommonError.ROUTE_AUTH_UNDECLARED);
    if (!rule) throw commonError(CommonError.ROUTE_SCOPES_UNDECLARED);
    const principal = await this.authenticate(context, schemes);
    const missing = missingScopes(rule, principal.scopes);
    if (missing.length) throw this.denied(principal, missing, rule);
    // Attached only once allowed: what runs after the guard (handlers, the request log) sees only
    // callers that passed.
    context.switchToHttp().getRequest<RequestWithPrincipal<P>>().principal = principal;
    return true;
  }

  /** Decorators do not change at run time: each route's are read on its first request only. */
  private routeAccess(handler: Target, cls: Target): RouteAccess {
    let byClass = this.routes.get(handler);
    if (!byClass) this.routes.set(handler, (byClass = new WeakMap()));
    let access = byClass.get(cls);
    if (!access) {
      const targets = [handler, cls];
      access = {
        isPublic: !!this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets),
        schemes: this.reflector.getAllAndOverride<string[] | undefined>(AUTH_SCHEMES, targets),
        rule: this.reflector.getAllAndOverride<AccessRule | undefined>(ACCESS_RULE, targets),
        bodyTypes: this.reflector.getAllAndOverride<string[] | undefined>(ACCEPTED_BODY_TYPES, targets),
      };
      byClass.set(cls, access);
    }
    return access;
  }

  /** Returns the caller with the scopes it holds for this request, or throws a coded 401/403. */
  protected abstract authenticate(context: ExecutionContext, schemes: string[]): Promise<P>;

  /** The error for a caller lacking scopes; apps may word it in their own domain's terms. */
  protected denied(_principal: P, missing: string[], _rule: AccessRule): DomainError {
    return commonError(CommonError.SCOPE_MISSING, { scopes: missing.join(', ') }, { missingScopes: missing });
  }
}
