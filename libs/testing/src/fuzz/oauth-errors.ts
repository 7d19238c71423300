import type { RawResponse } from '../http';
import type { RouteManifestEntry } from './route-manifest';

const OAUTH_ERRORS = new Set([
  'invalid_request',
  'invalid_client',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
]);

/**
 * FuzzTarget.errorProblems for a service whose OAuth 2.0 token endpoint (`tokenPath`) answers RFC 6749
 * 5.2 errors (`{ error, error_description }`) instead of the envelope; what refuses the request before
 * that route runs (a URL or size guard) still answers the envelope, and both are accepted there.
 * Every other route: the harness's own envelope check only.
 */
export function oauthTokenErrors(
  tokenPath: string,
): (route: RouteManifestEntry) => ((res: RawResponse) => string[]) | undefined {
  return (route) =>
    route.path !== tokenPath
      ? undefined
      : (res) => {
          const keys = Object.keys(res.json ?? {})
            .sort()
            .join();
          if (keys === 'code,error,success,value') return [];
          const ok =
            /^(error,error_description|error,error_description,reason)$/.test(keys) &&
            OAUTH_ERRORS.has(String(res.json?.error));
          return ok ? [] : [`neither an RFC 6749 error nor the envelope: ${res.text.slice(0, 200)}`];
        };
}
