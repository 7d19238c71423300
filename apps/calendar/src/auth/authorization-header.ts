/**
 * What an `Authorization` header of the `dav` scheme carries (decision 0041): HTTP Basic (RFC 7617,
 * UTF-8) with an app password, or a Bearer PlatformSession. Parsing never throws: anything that is
 * not a well-formed credential of one of the two is `malformed` (a coded 401, not a 500), another
 * scheme (Digest, Negotiate) is `unsupported`.
 */
export type AuthorizationCredentials =
  | { kind: 'basic'; username: string; password: string }
  | { kind: 'bearer'; token: string }
  | { kind: 'malformed' }
  | { kind: 'unsupported' };

/** Longer than any Basic pair of ours or any session JWT; a longer header is refused unread. */
export const MAX_AUTHORIZATION_CHARS = 8192;
/** Per part of a Basic pair, in characters after decoding (our usernames are 24, passwords 32). */
export const MAX_BASIC_PART_CHARS = 256;

const SCHEME = /^([A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*)(?:[ \t]+(.*))?$/s;
// Standard alphabet with padding, or the same without it (some clients leave it out).
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;
// RFC 6750 b64token.
const BEARER = /^[A-Za-z0-9\-._~+/]+=*$/;
// C0 controls and DEL: never part of a username or password (RFC 7617 2.1 excludes them).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

const MALFORMED = Object.freeze({ kind: 'malformed' as const });

export function parseAuthorization(header: string): AuthorizationCredentials {
  if (header.length > MAX_AUTHORIZATION_CHARS) return MALFORMED;
  const m = SCHEME.exec(header.trim());
  if (!m) return MALFORMED;
  const scheme = m[1].toLowerCase();
  const rest = (m[2] ?? '').trim();
  if (scheme === 'bearer') return BEARER.test(rest) ? { kind: 'bearer', token: rest } : MALFORMED;
  if (scheme !== 'basic') return { kind: 'unsupported' };
  return parseBasic(rest);
}

function parseBasic(encoded: string): AuthorizationCredentials {
  if (!encoded || !BASE64.test(encoded)) return MALFORMED;
  let text: string;
  try {
    text = utf8.decode(Buffer.from(encoded, 'base64'));
  } catch {
    return MALFORMED;
  }
  const colon = text.indexOf(':');
  if (colon <= 0) return MALFORMED;
  const username = text.slice(0, colon);
  const password = text.slice(colon + 1);
  if (!password || CONTROL.test(text)) return MALFORMED;
  if ([...username].length > MAX_BASIC_PART_CHARS || [...password].length > MAX_BASIC_PART_CHARS)
    return MALFORMED;
  return { kind: 'basic', username, password };
}
