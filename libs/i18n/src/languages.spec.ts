import { resolveLanguage } from './languages';

describe('resolveLanguage', () => {
  it('prefers Language-Code', () => {
    expect(resolveLanguage({ 'language-code': 'kk', 'accept-language': 'ru' })).toBe('kk');
  });
  it('normalises regional tags', () => {
    expect(resolveLanguage({ 'language-code': 'uz-Latn-UZ' })).toBe('uz');
  });
  it('falls back to Accept-Language by q-weight when Language-Code is missing or unsupported', () => {
    expect(resolveLanguage({ 'accept-language': 'de;q=0.9, tr;q=0.8, es;q=0.95' })).toBe('es');
    expect(resolveLanguage({ 'language-code': 'fr', 'accept-language': 'tr' })).toBe('tr');
  });
  it('defaults to English', () => {
    expect(resolveLanguage({})).toBe('en');
    expect(resolveLanguage({ 'accept-language': 'de, fr;q=0.5' })).toBe('en');
  });
});
