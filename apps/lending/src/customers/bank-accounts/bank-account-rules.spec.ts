import { BIC_PATTERN, checkIban, checkLocalAccount, mod97 } from './bank-account-rules';

describe('IBAN', () => {
  // The examples of the SWIFT IBAN registry.
  it.each([
    ['GB82 WEST 1234 5698 7654 32', 'GB'],
    ['DE89370400440532013000', 'DE'],
    ['kz86125kzt5004100100', 'KZ'],
    ['TR33 0006 1005 1978 6457 8413 26', 'TR'],
    ['ES91 2100 0418 4502 0005 1332', 'ES'],
    ['RU0204452560040702810412345678901', 'RU'],
  ])('%s is valid (%s)', (raw, country) => {
    const r = checkIban(raw);
    expect(r).toMatchObject({ ok: true, country });
    expect(r.ok && r.iban).toBe(raw.replace(/\s/g, '').toUpperCase());
  });

  it.each([
    ['GB82WEST12345698765433', 'checksum'],
    ['DE89370400440532013001', 'checksum'],
    ['KZ86125KZT500410010', 'length'],
    ['TR3300061005197864578413261', 'length'],
    ['US12345678901234567890', 'country'],
    ['GB82-WEST-1234', 'format'],
    ['1234', 'format'],
  ])('%s fails its %s check', (raw, problem) => {
    expect(checkIban(raw)).toMatchObject({ ok: false, problem });
  });

  it('mod 97 is exact on long numbers (no floating point)', () => {
    expect(mod97('3704004405320130001314DE89'.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55)))).toBe(
      mod97('3704004405320130001314DE89'),
    );
  });
});

describe('local accounts', () => {
  it('Russia: 20-digit account with the BIK control key', () => {
    expect(checkLocalAccount('RU', '40702810200000000001', '044525225')).toEqual({
      ok: true,
      accountNumber: '40702810200000000001',
      bankCode: '044525225',
      scheme: 'RU_ACCOUNT_BIK',
    });
    expect(checkLocalAccount('RU', '40702810300000000001', '044525225')).toMatchObject({
      ok: false,
      problem: 'checksum',
    });
    expect(checkLocalAccount('RU', '4070281020000000000', '044525225')).toMatchObject({
      ok: false,
      problem: 'format',
    });
  });

  it('Uzbekistan: 20-digit account and 5-digit MFO', () => {
    expect(checkLocalAccount('UZ', '2020 8000 9000 1234 5001', '00014')).toMatchObject({
      ok: true,
      accountNumber: '20208000900012345001',
    });
    expect(checkLocalAccount('UZ', '20208000900012345001', '0014')).toMatchObject({ ok: false });
  });

  it('United States: ABA routing number with its check digit', () => {
    expect(checkLocalAccount('US', '123456789', '021000021')).toMatchObject({ ok: true }); // JPMorgan Chase
    expect(checkLocalAccount('US', '123456789', '021000022')).toMatchObject({
      ok: false,
      problem: 'checksum',
    });
  });

  it('an IBAN country needs its IBAN; a country outside the registry takes the generic form', () => {
    expect(checkLocalAccount('KZ', '1234567890', '12345')).toEqual({
      ok: false,
      problem: 'iban_required',
      scheme: 'IBAN',
    });
    expect(checkLocalAccount('JP', '1234567', '0001')).toMatchObject({ ok: true, scheme: 'GENERIC_ACCOUNT' });
  });

  it('BIC: 8 or 11 characters', () => {
    expect(['CASPKZKA', 'DEUTDEFF500'].every((b) => BIC_PATTERN.test(b))).toBe(true);
    expect(['CASPKZK', 'CASP1ZKA', 'DEUTDEFF50'].some((b) => BIC_PATTERN.test(b))).toBe(false);
  });
});
