/**
 * Detached Ed25519 JWS over the report PDF: RFC 7515 compact serialization with the unencoded
 * payload option of RFC 7797 (`b64: false`, listed in `crit`), payload left out (`header..signature`).
 * Keys are published as an RFC 8037 OKP JWK Set; `kid` is the RFC 7638 thumbprint of the public key.
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  verify,
  type KeyObject,
} from 'node:crypto';

export interface OkpPublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid: string;
  alg: 'EdDSA';
  use: 'sig';
}

export interface ReportSigningKey {
  kid: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
}

export type ReportVerification =
  | { valid: true; kid: string }
  | { valid: false; reason: 'MALFORMED' | 'UNSUPPORTED_HEADER' | 'UNKNOWN_KID' | 'BAD_SIGNATURE' };

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');

function publicX(publicKey: KeyObject): string {
  const jwk = publicKey.export({ format: 'jwk' });
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string')
    throw new Error('not an Ed25519 key');
  return jwk.x;
}

/** RFC 7638 thumbprint: SHA-256 over the required members in lexicographic order, no whitespace. */
export function jwkThumbprint(publicKey: KeyObject): string {
  const canonical = `{"crv":"Ed25519","kty":"OKP","x":"${publicX(publicKey)}"}`;
  return b64url(createHash('sha256').update(canonical).digest());
}

export function generateReportSigningKey(): ReportSigningKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { kid: jwkThumbprint(publicKey), privateKey, publicKey };
}

/** Rebuilds a key from a PKCS#8 PEM (how a deployment would hold it as a secret). */
export function reportSigningKeyFromPem(pkcs8Pem: string): ReportSigningKey {
  const privateKey = createPrivateKey(pkcs8Pem);
  const publicKey = createPublicKey(privateKey);
  return { kid: jwkThumbprint(publicKey), privateKey, publicKey };
}

export function toPublicJwk(key: Pick<ReportSigningKey, 'kid' | 'publicKey'>): OkpPublicJwk {
  return { kty: 'OKP', crv: 'Ed25519', x: publicX(key.publicKey), kid: key.kid, alg: 'EdDSA', use: 'sig' };
}

/** The body of the published key endpoint; include retired keys as long as their reports are valid. */
export function exportJwks(keys: ReadonlyArray<Pick<ReportSigningKey, 'kid' | 'publicKey'>>): {
  keys: OkpPublicJwk[];
} {
  return { keys: keys.map(toPublicJwk) };
}

function signingInput(encodedHeader: string, payload: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from(`${encodedHeader}.`, 'ascii'), Buffer.from(payload)]);
}

/** Returns `BASE64URL(header)..BASE64URL(signature)`; the payload is the raw PDF bytes, detached. */
export function signReport(pdf: Uint8Array, key: ReportSigningKey): string {
  const header = { alg: 'EdDSA', kid: key.kid, b64: false, crit: ['b64'] };
  const encodedHeader = b64url(JSON.stringify(header));
  const signature = sign(null, signingInput(encodedHeader, pdf), key.privateKey);
  return `${encodedHeader}..${b64url(signature)}`;
}

function jwkToKey(jwk: OkpPublicJwk): KeyObject {
  return createPublicKey({ key: { kty: jwk.kty, crv: jwk.crv, x: jwk.x }, format: 'jwk' });
}

/** Verifies against a JWKS (or bare keys), choosing the key by the header's kid. Never throws. */
export function verifyReport(
  pdf: Uint8Array,
  jws: string,
  keys: ReadonlyArray<OkpPublicJwk | Pick<ReportSigningKey, 'kid' | 'publicKey'>>,
): ReportVerification {
  const parts = jws.split('.');
  if (parts.length !== 3 || parts[1] !== '' || !parts[0] || !parts[2])
    return { valid: false, reason: 'MALFORMED' };
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return { valid: false, reason: 'MALFORMED' };
  }
  const crit = header.crit;
  // Exactly our profile: anything else (alg "none", b64 true, unknown crit) is refused, not guessed at.
  if (
    header.alg !== 'EdDSA' ||
    header.b64 !== false ||
    !Array.isArray(crit) ||
    crit.length !== 1 ||
    crit[0] !== 'b64' ||
    typeof header.kid !== 'string'
  ) {
    return { valid: false, reason: 'UNSUPPORTED_HEADER' };
  }
  const match = keys.find((k) => k.kid === header.kid);
  if (!match) return { valid: false, reason: 'UNKNOWN_KID' };
  const publicKey = 'publicKey' in match ? match.publicKey : jwkToKey(match);
  const ok = verify(null, signingInput(parts[0], pdf), publicKey, Buffer.from(parts[2], 'base64url'));
  return ok ? { valid: true, kid: header.kid } : { valid: false, reason: 'BAD_SIGNATURE' };
}
