import { checkIdentifier, normaliseIdentifier, type IdentifierType } from './identifier-rules';

type Case = [IdentifierType, string, string, string | 'format' | 'checksum'];

/**
 * Real numbers where they are public (companies' tax numbers, the documented examples of each
 * scheme), otherwise numbers built by the scheme's own rule; the invalid ones change one digit.
 */
const CASES: Case[] = [
  // Kazakhstan: IIN (birth date + checksum) as national id; IIN or BIN as tax id.
  ['national_id', 'KZ', '900101300007', 'KZ_IIN'],
  ['national_id', 'KZ', '850715400004', 'KZ_IIN'],
  ['national_id', 'KZ', '900101300008', 'checksum'],
  ['national_id', 'KZ', '901301300007', 'checksum'], // month 13: the checksum holds, the date does not
  ['national_id', 'KZ', '90010130000', 'format'],
  ['tax_id', 'KZ', '971240001315', 'KZ_IIN_BIN'], // Kaspi Bank's BIN
  ['tax_id', 'KZ', '940140000385', 'KZ_IIN_BIN'], // Halyk Bank's BIN
  ['tax_id', 'KZ', '940140000386', 'checksum'],
  ['passport', 'KZ', 'N12345678', 'KZ_PASSPORT'],
  ['passport', 'KZ', 'A1234567', 'format'],
  // Uzbekistan: PINFL with birth date and 7-3-1 check digit; TIN of 9 digits.
  ['national_id', 'UZ', '30101902700014', 'UZ_PINFL'],
  ['national_id', 'UZ', '51503042700128', 'UZ_PINFL'],
  ['national_id', 'UZ', '30101902700015', 'checksum'],
  ['national_id', 'UZ', '3010190270001', 'format'],
  ['tax_id', 'UZ', '301234567', 'UZ_TIN'],
  ['tax_id', 'UZ', '101234567', 'format'],
  ['passport', 'UZ', 'AA1234567', 'UZ_PASSPORT'],
  // Turkey: T.C. Kimlik No; VKN (or the T.C. Kimlik No of a person) as tax id.
  ['national_id', 'TR', '10000000146', 'TR_TCKN'],
  ['national_id', 'TR', '10000000147', 'checksum'],
  ['national_id', 'TR', '01000000146', 'format'],
  ['tax_id', 'TR', '4540536920', 'TR_VKN'],
  ['tax_id', 'TR', '4540536921', 'checksum'],
  ['tax_id', 'TR', '10000000146', 'TR_TCKN'],
  ['passport', 'TR', 'U12345678', 'TR_PASSPORT'],
  // Spain: DNI and NIE control letters; NIF of K/L/M; CIF of companies.
  ['national_id', 'ES', '12345678Z', 'ES_DNI'],
  ['national_id', 'ES', '12345678-z', 'ES_DNI'],
  ['national_id', 'ES', '12345678A', 'checksum'],
  ['national_id', 'ES', 'X1234567L', 'ES_NIE'],
  ['national_id', 'ES', 'X1234567A', 'checksum'],
  ['national_id', 'ES', 'A58818501', 'format'],
  ['tax_id', 'ES', 'A58818501', 'ES_CIF'],
  ['tax_id', 'ES', 'B12345674', 'ES_CIF'],
  ['tax_id', 'ES', 'Q2826000H', 'ES_CIF'],
  ['tax_id', 'ES', 'A58818502', 'checksum'],
  ['tax_id', 'ES', 'Q28260008', 'checksum'], // a Q entity's control must be the letter
  ['tax_id', 'ES', 'K1234567L', 'ES_NIF_KLM'],
  ['passport', 'ES', 'PAA123456', 'ES_PASSPORT'],
  // Russia: INN of 10 (organisations) and 12 (people) digits; internal and foreign passports.
  ['tax_id', 'RU', '7707083893', 'RU_INN'], // Sberbank's INN
  ['tax_id', 'RU', '500100732259', 'RU_INN'],
  ['tax_id', 'RU', '7707083894', 'checksum'],
  ['tax_id', 'RU', '500100732258', 'checksum'],
  ['tax_id', 'RU', '77070838', 'format'],
  ['national_id', 'RU', '4510 123456', 'RU_PASSPORT'],
  ['passport', 'RU', '751234567', 'RU_FOREIGN_PASSPORT'],
  // Elsewhere: the generic patterns.
  ['national_id', 'DE', 'T22000129', 'GENERIC_NATIONAL_ID'],
  ['tax_id', 'FR', '30 23 217 600 053', 'GENERIC_TAX_ID'],
  ['passport', 'GB', '123456789', 'GENERIC_PASSPORT'],
  ['passport', 'GB', 'A1', 'format'],
  ['national_id', 'DE', 'Т22000129', 'format'], // a Cyrillic Т is not a Latin T
];

describe('identifier rules', () => {
  it.each(CASES)('%s %s %s -> %s', (type, country, value, expected) => {
    const r = checkIdentifier(type, country, value);
    if (expected === 'format' || expected === 'checksum') {
      expect(r).toMatchObject({ ok: false, problem: expected });
    } else {
      expect(r).toMatchObject({ ok: true, scheme: expected });
    }
  });

  it('normalises what people type: separators, case, full-width characters', () => {
    expect(normaliseIdentifier(' 8507-15 400.004 ')).toBe('850715400004');
    expect(normaliseIdentifier('ｘ１２３４５６７ｌ')).toBe('X1234567L');
    expect(checkIdentifier('passport', 'UZ', 'aa 1234567')).toEqual({
      ok: true,
      value: 'AA1234567',
      scheme: 'UZ_PASSPORT',
    });
  });

  it('names every scheme it tried when no shape matches', () => {
    expect(checkIdentifier('tax_id', 'ES', '123')).toEqual({
      ok: false,
      problem: 'format',
      scheme: 'ES_DNI|ES_NIE|ES_NIF_KLM|ES_CIF',
    });
  });
});
