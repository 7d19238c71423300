import { SignJWT, exportJWK, exportSPKI, generateKeyPair, type CryptoKey } from 'jose';
import { createSessionVerifier } from './session';

describe('PlatformSession verification', () => {
  let privateKey: CryptoKey;
  let publicPem: string;
  let jwks: string;

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    privateKey = pair.privateKey;
    publicPem = await exportSPKI(pair.publicKey);
    jwks = JSON.stringify({ keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256' }] });
  });

  const sign = (claims: Record<string, unknown>, opts: { aud?: string; iss?: string; exp?: number } = {}) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setSubject('person-1')
      .setIssuer(opts.iss ?? 'https://id.example')
      .setAudience(opts.aud ?? 'calendar')
      .setExpirationTime(opts.exp ?? Math.floor(Date.now() / 1000) + 600)
      .sign(privateKey);

  it('accepts a valid token by public key and by JWKS, exposing subject, account and teams', async () => {
    const token = await sign({ account_id: 'acme', teams: ['sales', 'ops'] });
    for (const verify of [
      createSessionVerifier({ publicKeyPem: publicPem, issuer: 'https://id.example', audience: 'calendar' }),
      createSessionVerifier({ jwksJson: jwks, issuer: 'https://id.example', audience: 'calendar' }),
    ]) {
      await expect(verify(token)).resolves.toMatchObject({
        subject: 'person-1',
        accountId: 'acme',
        teams: ['sales', 'ops'],
      });
    }
  });

  it('rejects an expired token, a foreign audience or issuer, and a tampered token', async () => {
    const verify = createSessionVerifier({
      publicKeyPem: publicPem,
      issuer: 'https://id.example',
      audience: 'calendar',
      clockToleranceSec: 0,
    });
    await expect(verify(await sign({}, { exp: Math.floor(Date.now() / 1000) - 60 }))).rejects.toThrow();
    await expect(verify(await sign({}, { aud: 'lending' }))).rejects.toThrow();
    await expect(verify(await sign({}, { iss: 'https://evil.example' }))).rejects.toThrow();
    const good = await sign({ account_id: 'acme' });
    const [h, p, s] = good.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(p, 'base64url').toString()), account_id: 'other' }),
    ).toString('base64url');
    await expect(verify(`${h}.${forged}.${s}`)).rejects.toThrow();
  });
});
