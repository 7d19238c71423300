/**
 * What never reaches a log line, whatever wrote it (an error message, a stack, a driver's complaint):
 * the request log itself carries no headers, no query string and the route pattern rather than the
 * path, so these rules are the net under everything else.
 */
const RULES: readonly [RegExp, string][] = [
  // Credentials in a URL: postgres://user:password@host, https://user:token@host.
  [/\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+):[^\s@/]+@/gi, '$1:***@'],
  // Authorization values and the platform's key and signature headers written out ("Authorization:
  // Bearer x", "x-api-key=x", "API_KEY: x", "X-Service-Signature: v1,v2").
  [/\b(Bearer|Basic|Digest)\s+[A-Za-z0-9._~+/=-]+/g, '$1 ***'],
  [
    /\b(authorization|proxy-authorization|cookie|set-cookie|x-api-key|api[_-]?key|signature)(["']?\s*[:=]\s*["']?)(?!(?:Bearer|Basic|Digest)\s|\*\*\*)[^\s"';&]+/gi,
    '$1$2***',
  ],
  // Secrets in query strings: signed upload URLs, OAuth codes and tokens, passwords.
  [
    /([?&](?:token|access_token|refresh_token|id_token|code|key|api_key|apikey|secret|client_secret|password|signature|sig|expires_sig)=)[^&#\s"']+/gi,
    '$1***',
  ],
  // Tokens that are a path segment: the borrower portal's one-time upload link
  // (/portal/v1/upload/<token>/...).
  [/(\/upload\/)(?!:token\b)[^/?#\s"']+/gi, '$1***'],
  // The calendar's ICS subscription feed: the whole address is the credential (/Calendar/ics/<token>).
  [/(\/ics\/)(?!:token\b)[^/?#\s"']+/gi, '$1***'],
];

/** The text with every credential-shaped part replaced by `***`. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const [pattern, replacement] of RULES) out = out.replace(pattern, replacement);
  return out;
}
