import { applyDecorators, Header, SetMetadata } from '@nestjs/common';

/** Metadata key: the route's answer shows a secret (`ShowsSecret`). */
export const SHOWS_SECRET = 'platform:showsSecret';

/**
 * A route whose answer shows a secret, once (an API key, a webhook signing secret, a client secret, a
 * bearer token): `Cache-Control: no-store`, so no browser, proxy or gateway micro-cache keeps a copy.
 * Every route whose response model has a secret field must carry it; each app's route test walks the
 * routes and fails on one that does not (libs/testing secretRouteProblems).
 */
export function ShowsSecret() {
  return applyDecorators(SetMetadata(SHOWS_SECRET, true), Header('Cache-Control', 'no-store'));
}
