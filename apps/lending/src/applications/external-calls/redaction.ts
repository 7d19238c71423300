/**
 * What the external-call log never stores (docs/lending/applications.md, "Redaction"). Applied in one
 * place, ExternalCallLog.record, to every request and response body before it is written, so no
 * provider adapter can forget it.
 *
 * - Secrets (`password`, `token`, `apiKey`, `authorization`, `secret`, `cookie`, ... by key name, any
 *   letter case and separator, and any key ending in `token`, `secret`, `password` or `apikey`): the value is
 *   replaced by REDACTED, whatever its type.
 * - Identity numbers (`nationalId`, `passportNumber`, `taxId`, `iin`, `pinfl`, `ssn`, ...): all but
 *   the last four characters are masked with `*` (the length is kept); four characters or fewer are
 *   masked entirely.
 * - Any string that carries a bearer or basic credential (`Bearer abc...`) keeps the scheme only.
 * - Free text (a provider's error message, `redactText`) also has every run of 8 or more digits
 *   masked like an identity number: such a message may quote the id it failed on.
 * Deeper than MAX_DEPTH the value is cut (a log, not an archive).
 */
export const REDACTED = '[REDACTED]';

const SECRET_KEYS = new Set([
  'password',
  'passwd',
  'pwd',
  'secret',
  'clientsecret',
  'token',
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'apikey',
  'xapikey',
  'authorization',
  'proxyauthorization',
  'cookie',
  'setcookie',
  'credentials',
  'privatekey',
  'signingkey',
  'pin',
  'cvv',
  'cvc',
  'otp',
]);
const SECRET_SUFFIXES = ['token', 'secret', 'password', 'apikey'];

const IDENTITY_KEYS = new Set([
  'nationalid',
  'nationalidnumber',
  'personalid',
  'personalnumber',
  'passportnumber',
  'documentnumber',
  'taxid',
  'tin',
  'inn',
  'iin',
  'pinfl',
  'tckn',
  'dni',
  'nie',
  'ssn',
  'snils',
]);

const MAX_DEPTH = 20;
const CREDENTIAL_IN_TEXT = /\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]+/gi;

const normal = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, '');

function isSecretKey(key: string): boolean {
  const k = normal(key);
  return SECRET_KEYS.has(k) || SECRET_SUFFIXES.some((s) => k.endsWith(s));
}

/** `AB123456789` -> `*******6789`: the last four characters stay, as on a card receipt. */
export function maskIdentifier(value: string): string {
  const chars = [...value];
  if (chars.length <= 4) return '*'.repeat(chars.length);
  return '*'.repeat(chars.length - 4) + chars.slice(-4).join('');
}

function redactCredentials(s: string): string {
  return s.replace(CREDENTIAL_IN_TEXT, (_m, scheme: string) => `${scheme} ${REDACTED}`);
}

/** Free text, e.g. an error message: credentials removed and long digit runs masked. */
export function redactText(s: string): string {
  return redactCredentials(s).replace(/\d{8,}/g, (digits) => maskIdentifier(digits));
}

/** A redacted deep copy of `value`; the input is not changed. */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactCredentials(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const kept = isSecretKey(k)
      ? REDACTED
      : IDENTITY_KEYS.has(normal(k)) && (typeof v === 'string' || typeof v === 'number')
        ? maskIdentifier(String(v))
        : redact(v, depth + 1);
    // defineProperty: a key named `__proto__` stays data, never a prototype change.
    Object.defineProperty(out, k, { value: kept, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
