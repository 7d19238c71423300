import { SetMetadata, applyDecorators } from '@nestjs/common';

export const IS_PUBLIC = 'platform:is-public';
export const AUTH_SCHEMES = 'platform:auth-schemes';

/** The route is reachable without credentials (health, public status, JWKS, token exchange). */
export const Public = () => SetMetadata(IS_PUBLIC, true);

/**
 * The route requires one of these credential schemes (e.g. `product-key`, `platform-session`). The app's
 * guard decides what each scheme means; a route with neither this nor `@Public()` is refused.
 */
export const Authenticated = (...schemes: [string, ...string[]]) =>
  applyDecorators(SetMetadata(AUTH_SCHEMES, schemes));
