import { generateKeyPairSync } from 'node:crypto';
import { signReport, verifyReport } from '@platform/verification-checks';
import { DEV_REPORT_SIGNING_KEY, previousKeysFromSetting, signingKeyFromSetting } from './report-keys';
import { loadConfig } from '@platform/config';
import { VerificationConfig } from '../config/verification.config';

describe('report signing key settings', () => {
  const pdf = Buffer.from('%PDF-1.7 test');

  it('reads a PKCS#8 PEM, or derives a stable key from a long secret', () => {
    const pem = signingKeyFromSetting(DEV_REPORT_SIGNING_KEY);
    expect(verifyReport(pdf, signReport(pdf, pem), [pem]).valid).toBe(true);
    const secret = 'dev-only-verification_report_signing_key-not-for-production';
    expect(signingKeyFromSetting(secret).kid).toBe(signingKeyFromSetting(secret).kid);
    expect(signingKeyFromSetting(secret).kid).not.toBe(signingKeyFromSetting(`${secret}x`).kid);
    expect(() => signingKeyFromSetting('short')).toThrow(/32 characters/);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    });
    expect(() => signingKeyFromSetting(String(rsa))).toThrow(/Ed25519/);
  });

  it('publishes retired keys from PEM blocks and secrets, so their reports keep verifying', () => {
    const old = signingKeyFromSetting('an-old-signing-secret-of-enough-length-1');
    const retiredPem = generateKeyPairSync('ed25519');
    const setting = `${String(retiredPem.publicKey.export({ type: 'spki', format: 'pem' }))}\nan-old-signing-secret-of-enough-length-1`;
    const keys = previousKeysFromSetting(setting);
    expect(keys).toHaveLength(2);
    expect(verifyReport(pdf, signReport(pdf, old), keys).valid).toBe(true);
  });

  it('production refuses a missing key and the development key; elsewhere the development key is the default', () => {
    expect(loadConfig(VerificationConfig, {}).reportSigningKey()).toBe(DEV_REPORT_SIGNING_KEY);
    expect(() =>
      loadConfig(VerificationConfig, { NODE_ENV: 'production', REPORT_SIGNING_KEY: DEV_REPORT_SIGNING_KEY }),
    ).toThrow(/REPORT_SIGNING_KEY/);
    expect(() => loadConfig(VerificationConfig, { REPORT_SIGNING_KEY: 'too short' })).toThrow(
      /REPORT_SIGNING_KEY/,
    );
    // Other settings production needs may fail too: only this one's verdict is asserted.
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(VerificationConfig, env);
        return '';
      } catch (e) {
        return String(e);
      }
    };
    expect(problems({ NODE_ENV: 'production', REPORT_SIGNING_KEY: 'p'.repeat(48) })).not.toContain(
      'REPORT_SIGNING_KEY',
    );
    expect(problems({ NODE_ENV: 'production' })).toContain('REPORT_SIGNING_KEY');
  });
});
