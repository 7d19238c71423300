import { hashSharePassword, verifySharePassword } from './report-password';

describe('report share password (scrypt)', () => {
  it('stores a salted scrypt hash, never the password, and verifies it', async () => {
    const hash = await hashSharePassword('correct horse battery');
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(hash).not.toContain('horse');
    expect(await hashSharePassword('correct horse battery')).not.toBe(hash);
    expect(await verifySharePassword('correct horse battery', hash)).toBe(true);
  });

  it('refuses a wrong password, a report without one, and a malformed hash', async () => {
    const hash = await hashSharePassword('correct horse battery');
    expect(await verifySharePassword('correct horse batterY', hash)).toBe(false);
    expect(await verifySharePassword('', hash)).toBe(false);
    expect(await verifySharePassword('anything', null)).toBe(false);
    expect(await verifySharePassword('anything', 'scrypt$1$1$1$x$y')).toBe(false);
  });

  it('normalises Unicode, so the same password typed differently matches', async () => {
    const hash = await hashSharePassword('Şifre-Ğüç-é');
    expect(await verifySharePassword('S\u0327ifre-G\u0306u\u0308c\u0327-e\u0301', hash)).toBe(true);
  });
});
