import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function base62(bytes: number, length: number): string {
  // Rejection sampling keeps every character equally likely.
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(bytes)) {
      if (b < 248 && out.length < length) out += ALPHABET[b % 62];
    }
  }
  return out;
}

export interface IssuedApiKey {
  /** Public lookup id, safe to show in lists and logs. */
  keyId: string;
  /** `<prefix>_<keyId>`: what a UI shows to tell keys apart. */
  displayPrefix: string;
  /** The whole secret token. Shown to the creator once, never stored. */
  token: string;
  /** SHA-256 of the token, hex. The only thing stored. */
  hash: string;
}

export interface ParsedApiKey {
  prefix: string;
  keyId: string;
  token: string;
}

const TOKEN = /^([a-z]{2,8})_([0-9A-Za-z]{12})_([0-9A-Za-z]{40})$/;

export function hashApiKey(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * Issues a key `<prefix>_<keyId>_<secret>`: 12 base62 characters of id, 40 of secret (~238 bits). The
 * key id lets the server find the row without scanning; the hash proves possession of the secret.
 */
export function issueApiKey(prefix: string): IssuedApiKey {
  if (!/^[a-z]{2,8}$/.test(prefix)) throw new Error(`bad key prefix ${prefix}`);
  const keyId = base62(16, 12);
  const token = `${prefix}_${keyId}_${base62(48, 40)}`;
  return { keyId, displayPrefix: `${prefix}_${keyId}`, token, hash: hashApiKey(token) };
}

export function parseApiKey(token: string | undefined | null): ParsedApiKey | undefined {
  if (!token) return undefined;
  const m = TOKEN.exec(token.trim());
  return m ? { prefix: m[1], keyId: m[2], token: m[0] } : undefined;
}

/** Constant-time comparison of a presented token with a stored hash. */
export function verifyApiKey(token: string, storedHash: string): boolean {
  const presented = Buffer.from(hashApiKey(token), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === presented.length && timingSafeEqual(presented, stored);
}
