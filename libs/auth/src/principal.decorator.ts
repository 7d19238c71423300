import { createParamDecorator, type ExecutionContext } from '@nestjs/common';

/**
 * What every app's guard attaches to the request: who is calling and which scopes they hold for this
 * request. Apps narrow it (a key of an organization, a person of an account).
 */
export interface Principal {
  kind: string;
  scopes: readonly string[];
}

/**
 * The one principal of an API key, in every service: the key authenticates as its owner (an
 * organization for lending and verification, a product for calendar) and carries its scopes.
 */
export interface KeyPrincipal<
  Scope extends string = string,
  Owner extends string = string,
> extends Principal {
  kind: 'key';
  scheme: string;
  /** The key's owner: the tenant the key belongs to. */
  ownerId: Owner;
  keyId: string;
  scopes: readonly Scope[];
  /** A product's default key (calendar) is not request-logged. */
  isDefault: boolean;
}

/** Where an app's guard puts the authenticated caller. */
export type RequestWithPrincipal<P> = { principal?: P };

/** Injects the principal the app's guard attached to the request. */
export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext) => {
  return ctx.switchToHttp().getRequest<RequestWithPrincipal<unknown>>().principal;
});
