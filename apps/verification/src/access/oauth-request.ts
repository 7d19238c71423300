/**
 * RFC 6749 section 4.4 (client credentials) at the token endpoint: the request's parsing and the
 * answers of sections 5.1 and 5.2, pure so that every rule is unit-tested. `error_description` is
 * English ASCII: 5.2 allows no other characters in it.
 */
export type OAuthErrorCode =
  'invalid_request' | 'invalid_client' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_scope';

export interface OAuthFailure {
  status: number;
  body: { error: OAuthErrorCode; error_description: string; reason?: string };
  headers: Record<string, string>;
}

export interface TokenRequest {
  clientId: string;
  clientSecret: string;
  /** Requested scopes; undefined when the request names none (then the key's scopes). */
  scope: string[] | undefined;
}

/** Realm of the Basic challenge sent with every invalid_client (RFC 9110: a 401 carries one). */
export const BASIC_CHALLENGE = 'Basic realm="verification", charset="UTF-8"';

export function oauthFailure(error: OAuthErrorCode, description: string, status = 400): OAuthFailure {
  return {
    status: error === 'invalid_client' ? 401 : status,
    body: { error, error_description: description },
    headers: error === 'invalid_client' ? { 'WWW-Authenticate': BASIC_CHALLENGE } : {},
  };
}

/** scope-token = 1*( %x21 / %x23-5B / %x5D-7E ) (RFC 6749 section 3.3). */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;
const FORM = /^application\/x-www-form-urlencoded\s*(;.*)?$/i;

/** application/x-www-form-urlencoded decoding of one Basic credential half (RFC 6749 section 2.3.1). */
function formDecode(s: string): string | undefined {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

function basicCredentials(authorization: string): { id: string; secret: string } | undefined {
  const m = /^basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
  if (!m) return undefined;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  const id = formDecode(decoded.slice(0, colon));
  const secret = formDecode(decoded.slice(colon + 1));
  return id && secret ? { id, secret } : undefined;
}

/**
 * The token request, or the RFC error to answer. `form` is the raw body when it was sent as
 * `application/x-www-form-urlencoded`, undefined otherwise.
 */
export function parseTokenRequest(input: {
  authorization: string | undefined;
  contentType: string | undefined;
  form: string | undefined;
}): TokenRequest | OAuthFailure {
  if (!FORM.test(input.contentType ?? ''))
    return oauthFailure('invalid_request', 'The body must be application/x-www-form-urlencoded.');
  if (input.form === undefined)
    return oauthFailure('invalid_request', 'The form body must be UTF-8 and at most 8 KiB.');
  const params = new URLSearchParams(input.form);
  const seen = new Set<string>();
  for (const name of params.keys()) {
    if (seen.has(name)) return oauthFailure('invalid_request', `The parameter ${ascii(name)} is repeated.`);
    seen.add(name);
  }
  const formId = params.get('client_id') ?? undefined;
  const formSecret = params.get('client_secret') ?? undefined;
  let clientId: string;
  let clientSecret: string;
  if (input.authorization !== undefined) {
    if (formSecret !== undefined)
      return oauthFailure(
        'invalid_request',
        'Use one client authentication method: HTTP Basic or client_id and client_secret in the body, not both.',
      );
    const basic = basicCredentials(input.authorization);
    if (!basic) return oauthFailure('invalid_client', 'The Authorization header is not valid HTTP Basic.');
    if (formId !== undefined && formId !== basic.id)
      return oauthFailure('invalid_request', 'client_id in the body differs from the HTTP Basic one.');
    [clientId, clientSecret] = [basic.id, basic.secret];
  } else {
    if (!formId || !formSecret)
      return oauthFailure(
        'invalid_client',
        'Client authentication is required: HTTP Basic, or client_id and client_secret in the body.',
      );
    [clientId, clientSecret] = [formId, formSecret];
  }
  const grant = params.get('grant_type');
  if (!grant) return oauthFailure('invalid_request', 'grant_type is required.');
  if (grant !== 'client_credentials')
    return oauthFailure('unsupported_grant_type', 'Only the client_credentials grant is supported.');
  const scopeText = params.get('scope');
  let scope: string[] | undefined;
  if (scopeText) {
    scope = scopeText.split(' ');
    if (!scope.every((s) => SCOPE_TOKEN.test(s)))
      return oauthFailure('invalid_scope', 'scope must be scope names separated by single spaces.');
    scope = [...new Set(scope)];
  }
  return { clientId, clientSecret, scope };
}

/** Printable ASCII only, for descriptions that quote the request. */
const ascii = (s: string) => s.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, '?').slice(0, 64);

export const isFailure = (r: unknown): r is OAuthFailure =>
  typeof r === 'object' && r !== null && 'status' in r && 'body' in r;
