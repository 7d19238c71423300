import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { jwkThumbprint, reportSigningKeyFromPem, type ReportSigningKey } from '@platform/verification-checks';

/**
 * The built-in development signing key (REPORT_SIGNING_KEY unset outside production). It is public,
 * so production refuses it (config/verification.config.ts).
 */
export const DEV_REPORT_SIGNING_KEY = `-----BEGIN PRIVATE KEY-----
MC4CAQAwBQYDK2VwBCIEIAP7u1A4obZFmw1Qtl+F+WUTtewkEvq7XGq/kLA+T4kG
-----END PRIVATE KEY-----`;

/** PKCS#8 DER prefix of an Ed25519 private key (RFC 8410): the 32-byte seed follows. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const PEM_BLOCK = /-----BEGIN ([A-Z ]+)-----[\s\S]+?-----END \1-----/g;

/**
 * A signing key from a setting: a PKCS#8 PEM of an Ed25519 key, or any other secret text of at least
 * 32 characters, from which the key is derived (seed = SHA-256 of the text; what the generated
 * deployments hold, since their secrets are plain strings). Throws on anything else.
 */
export function signingKeyFromSetting(value: string): ReportSigningKey {
  const text = value.trim();
  if (text.startsWith('-----BEGIN')) {
    const key = reportSigningKeyFromPem(text);
    if (key.privateKey.asymmetricKeyType !== 'ed25519') throw new Error('the signing key is not Ed25519');
    return key;
  }
  if (text.length < 32) throw new Error('a signing secret needs at least 32 characters');
  const seed = createHash('sha256').update(text, 'utf8').digest();
  const privateKey = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const publicKey = createPublicKey(privateKey);
  return { kid: jwkThumbprint(publicKey), privateKey, publicKey };
}

/** A verifying key: its kid and public half. */
export interface ReportVerifyingKey {
  kid: string;
  publicKey: KeyObject;
}

/**
 * Retired keys from REPORT_SIGNING_PREVIOUS_KEYS: PEM blocks (private PKCS#8 or public SPKI, Ed25519),
 * and, outside them, comma-separated signing secrets as above. Only their public halves are kept.
 */
export function previousKeysFromSetting(value: string): ReportVerifyingKey[] {
  const out: ReportVerifyingKey[] = [];
  for (const m of value.matchAll(PEM_BLOCK)) {
    const publicKey = m[1].includes('PRIVATE')
      ? createPublicKey(createPrivateKey(m[0]))
      : createPublicKey(m[0]);
    if (publicKey.asymmetricKeyType !== 'ed25519') throw new Error('a previous key is not Ed25519');
    out.push({ kid: jwkThumbprint(publicKey), publicKey });
  }
  const rest = value.replace(PEM_BLOCK, '');
  for (const secret of rest.split(',').map((s) => s.trim())) {
    if (!secret) continue;
    const key = signingKeyFromSetting(secret);
    out.push({ kid: key.kid, publicKey: key.publicKey });
  }
  return out;
}

/** Why a key setting does not parse ('' when it does): the config's validation message. */
export function signingKeyProblem(parse: () => unknown): string {
  try {
    parse();
    return '';
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}
