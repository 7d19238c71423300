import { hashApiKey, issueApiKey, parseApiKey, verifyApiKey } from './api-key';

describe('API keys', () => {
  it('issues a token whose hash, not the token, is what gets stored', () => {
    const k = issueApiKey('cal');
    expect(k.token).toMatch(/^cal_[0-9A-Za-z]{12}_[0-9A-Za-z]{40}$/);
    expect(k.hash).toBe(hashApiKey(k.token));
    expect(k.hash).not.toContain(k.token.slice(17));
    expect(k.displayPrefix).toBe(`cal_${k.keyId}`);
  });

  it('never issues the same key twice', () => {
    const tokens = new Set(Array.from({ length: 200 }, () => issueApiKey('lnd').token));
    expect(tokens.size).toBe(200);
  });

  it('verifies the right token and rejects a near miss', () => {
    const k = issueApiKey('ver');
    expect(verifyApiKey(k.token, k.hash)).toBe(true);
    const tampered = k.token.slice(0, -1) + (k.token.endsWith('a') ? 'b' : 'a');
    expect(verifyApiKey(tampered, k.hash)).toBe(false);
    expect(verifyApiKey(k.token, 'abcd')).toBe(false);
  });

  it('parses only well-formed tokens', () => {
    const k = issueApiKey('cal');
    expect(parseApiKey(k.token)).toEqual({ prefix: 'cal', keyId: k.keyId, token: k.token });
    expect(parseApiKey('cal_short_x')).toBeUndefined();
    expect(parseApiKey('')).toBeUndefined();
    expect(parseApiKey(undefined)).toBeUndefined();
  });
});
