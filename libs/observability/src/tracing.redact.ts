/**
 * What an HTTP span may say about a URL. Spans leave the platform for a collector that more people can
 * read than the database, so credentials in URLs are replaced before a span records them: the
 * applicant portal's upload token is a path segment (`/portal/v1/upload/vup_...`), unsubscribe links
 * carry `?token=`, and S3-style presigned URLs their signature.
 */
export const REDACTED = 'REDACTED';

/** Query parameters whose values are credentials (compared case-insensitively). */
const SECRET_QUERY_PARAMS = new Set(
  [
    'token',
    'access_token',
    'refresh_token',
    'id_token',
    'code',
    'key',
    'api_key',
    'apikey',
    'secret',
    'password',
    'signature',
    'sig',
    'x-amz-signature',
    'x-amz-credential',
    'x-amz-security-token',
    'x-goog-signature',
    'awsaccesskeyid',
  ].map((p) => p.toLowerCase()),
);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A long opaque segment: a token rather than a name or an id people pick (those are short). */
const OPAQUE = /^[A-Za-z0-9_~.%+=-]{20,}$/;

/** A path with every opaque segment but a UUID (record ids are not secrets) replaced. */
export function redactPath(path: string): string {
  return path
    .split('/')
    .map((segment) => (OPAQUE.test(segment) && !UUID.test(segment) ? REDACTED : segment))
    .join('/');
}

/** A query string (without `?`) with the values of credential parameters replaced. */
export function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const i = pair.indexOf('=');
      if (i < 0) return pair;
      let name = pair.slice(0, i);
      try {
        name = decodeURIComponent(name);
      } catch {
        /* undecodable: compared as sent */
      }
      return SECRET_QUERY_PARAMS.has(name.toLowerCase()) ? `${pair.slice(0, i)}=${REDACTED}` : pair;
    })
    .join('&');
}

/** `path?query` as a request line has it, split and redacted. */
export function redactTarget(target: string): { path: string; query?: string } {
  const i = target.indexOf('?');
  if (i < 0) return { path: redactPath(target) };
  return { path: redactPath(target.slice(0, i)), query: redactQuery(target.slice(i + 1)) };
}
