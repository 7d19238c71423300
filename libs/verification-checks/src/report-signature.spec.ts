import { createPublicKey } from 'node:crypto';
import {
  exportJwks,
  generateReportSigningKey,
  jwkThumbprint,
  reportSigningKeyFromPem,
  signReport,
  verifyReport,
} from './report-signature';

const pdf = Uint8Array.from(Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF\n'));

describe('report signature (detached JWS, EdDSA, b64=false)', () => {
  const keyA = generateReportSigningKey();
  const keyB = generateReportSigningKey();

  it('signs and verifies; the header is the RFC 7797 detached profile', () => {
    const jws = signReport(pdf, keyA);
    const [h, payload, sig] = jws.split('.');
    expect(payload).toBe('');
    expect(Buffer.from(sig, 'base64url')).toHaveLength(64);
    expect(JSON.parse(Buffer.from(h, 'base64url').toString())).toEqual({
      alg: 'EdDSA',
      kid: keyA.kid,
      b64: false,
      crit: ['b64'],
    });
    expect(verifyReport(pdf, jws, [keyA])).toEqual({ valid: true, kid: keyA.kid });
  });

  it('verifies through the published JWKS', () => {
    const jwks = exportJwks([keyA, keyB]);
    expect(jwks.keys[0]).toMatchObject({
      kty: 'OKP',
      crv: 'Ed25519',
      kid: keyA.kid,
      alg: 'EdDSA',
      use: 'sig',
    });
    expect(jwks.keys[0]).not.toHaveProperty('d');
    expect(verifyReport(pdf, signReport(pdf, keyB), jwks.keys)).toEqual({ valid: true, kid: keyB.kid });
  });

  it('a one-byte change fails', () => {
    const jws = signReport(pdf, keyA);
    for (const i of [0, 10, pdf.length - 1]) {
      const altered = Uint8Array.from(pdf);
      altered[i] ^= 0x01;
      expect(verifyReport(altered, jws, [keyA])).toEqual({ valid: false, reason: 'BAD_SIGNATURE' });
    }
  });

  it('a wrong key under the same kid fails; an unknown kid is reported', () => {
    const jws = signReport(pdf, keyA);
    expect(verifyReport(pdf, jws, [{ kid: keyA.kid, publicKey: keyB.publicKey }])).toEqual({
      valid: false,
      reason: 'BAD_SIGNATURE',
    });
    expect(verifyReport(pdf, jws, [keyB])).toEqual({ valid: false, reason: 'UNKNOWN_KID' });
  });

  it('kid rotation: reports signed by the old and the new key both verify, each by its kid', () => {
    const published = exportJwks([keyB, keyA]).keys;
    expect(verifyReport(pdf, signReport(pdf, keyA), published)).toEqual({ valid: true, kid: keyA.kid });
    expect(verifyReport(pdf, signReport(pdf, keyB), published)).toEqual({ valid: true, kid: keyB.kid });
  });

  it('refuses malformed tokens and other header profiles', () => {
    const jws = signReport(pdf, keyA);
    const [, , sig] = jws.split('.');
    const withHeader = (h: object) => `${Buffer.from(JSON.stringify(h)).toString('base64url')}..${sig}`;
    expect(verifyReport(pdf, 'abc', [keyA]).valid).toBe(false);
    expect(verifyReport(pdf, jws.replace('..', '.eA.'), [keyA])).toEqual({
      valid: false,
      reason: 'MALFORMED',
    });
    expect(
      verifyReport(pdf, withHeader({ alg: 'none', kid: keyA.kid, b64: false, crit: ['b64'] }), [keyA]),
    ).toEqual({
      valid: false,
      reason: 'UNSUPPORTED_HEADER',
    });
    expect(verifyReport(pdf, withHeader({ alg: 'EdDSA', kid: keyA.kid }), [keyA])).toEqual({
      valid: false,
      reason: 'UNSUPPORTED_HEADER',
    });
  });

  it('thumbprint matches the RFC 8037 appendix A.3 example', () => {
    const key = createPublicKey({
      key: { kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' },
      format: 'jwk',
    });
    expect(jwkThumbprint(key)).toBe('kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k');
  });

  it('kid is the RFC 7638 thumbprint and survives a PEM round trip', () => {
    const pem = keyA.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const again = reportSigningKeyFromPem(pem);
    expect(again.kid).toBe(keyA.kid);
    expect(jwkThumbprint(keyA.publicKey)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
