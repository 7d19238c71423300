import { createParamDecorator, type ExecutionContext } from '@nestjs/common';

/** Where an app's guard puts the authenticated caller. */
export type RequestWithPrincipal<P> = { principal?: P };

/** Injects the principal the app's guard attached to the request. */
export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext) => {
  return ctx.switchToHttp().getRequest<RequestWithPrincipal<unknown>>().principal;
});
