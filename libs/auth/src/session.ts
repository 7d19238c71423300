import {
  createLocalJWKSet,
  createRemoteJWKSet,
  importSPKI,
  jwtVerify,
  type JWTPayload,
  type JWK,
  type CryptoKey,
  type JWTVerifyGetKey,
} from 'jose';

/**
 * A user call carries `PlatformSession: <JWT>` issued by the identity provider. We verify it as a signed
 * JWT (RS256/ES256/EdDSA) against a configured JWKS URL, an inline JWKS, or a PEM public key, and check
 * issuer, audience and expiry.
 */
export interface SessionVerifierOptions {
  jwksUrl?: string;
  jwksJson?: string;
  publicKeyPem?: string;
  /** Algorithm of `publicKeyPem`; default RS256. */
  publicKeyAlgorithm?: 'RS256' | 'ES256' | 'EdDSA';
  issuer: string;
  audience: string;
  /** Clock tolerance in seconds. */
  clockToleranceSec?: number;
}

export interface PlatformSession {
  subject: string;
  accountId?: string;
  teams: string[];
  claims: JWTPayload;
}

export type SessionVerifier = (token: string) => Promise<PlatformSession>;

export function createSessionVerifier(opts: SessionVerifierOptions): SessionVerifier {
  const algorithms = ['RS256', 'ES256', 'EdDSA'];
  type VerifyKey = CryptoKey | JWTVerifyGetKey;
  let keyPromise: Promise<VerifyKey>;
  if (opts.jwksUrl) {
    keyPromise = Promise.resolve(createRemoteJWKSet(new URL(opts.jwksUrl)));
  } else if (opts.jwksJson) {
    const set = JSON.parse(opts.jwksJson) as { keys: JWK[] };
    keyPromise = Promise.resolve(createLocalJWKSet(set));
  } else if (opts.publicKeyPem) {
    keyPromise = importSPKI(opts.publicKeyPem, opts.publicKeyAlgorithm ?? 'RS256');
  } else {
    throw new Error('session verifier needs a JWKS URL, a JWKS or a public key');
  }
  return async (token: string) => {
    const key = await keyPromise;
    const options = {
      issuer: opts.issuer,
      audience: opts.audience,
      algorithms,
      clockTolerance: opts.clockToleranceSec ?? 30,
    };
    const { payload } =
      typeof key === 'function' ? await jwtVerify(token, key, options) : await jwtVerify(token, key, options);
    if (!payload.sub) throw new Error('session token has no subject');
    const teams = Array.isArray(payload.teams) ? payload.teams.map(String) : [];
    const accountId = typeof payload.account_id === 'string' ? payload.account_id : undefined;
    return { subject: payload.sub, accountId, teams, claims: payload };
  };
}
