/**
 * Identifier validation per type and issuing country (docs/lending/customers.md, "Identifiers"). Pure
 * functions: the service calls `checkIdentifier` and turns a failure into a coded error.
 *
 * A value is normalised before it is checked and stored (NFKC, upper case, spaces, hyphens, dots and
 * slashes removed), so `860101 300 21-8` and `860101300218` are one identifier for the uniqueness rule.
 * Where a country has several schemes for one type (Spain's DNI and NIE, Turkey's VKN and T.C. Kimlik No
 * as tax ids), the first scheme whose shape matches decides the checksum.
 */

export const IDENTIFIER_TYPES = ['national_id', 'passport', 'tax_id'] as const;
export type IdentifierType = (typeof IDENTIFIER_TYPES)[number];

export interface IdentifierScheme {
  /** Stable name, e.g. `KZ_IIN`; returned with the identifier and in errors. */
  readonly id: string;
  readonly pattern: RegExp;
  /** The check digits (and any date embedded in the number); absent where none is published. */
  readonly verify?: (value: string) => boolean;
}

export type IdentifierCheck =
  { ok: true; value: string; scheme: string } | { ok: false; problem: 'format' | 'checksum'; scheme: string };

const digits = (v: string) => [...v].map(Number);
const weighted = (d: number[], weights: readonly number[]) =>
  weights.reduce((sum, w, i) => sum + w * d[i], 0);

function isRealDate(year: number, month: number, day: number): boolean {
  const d = new Date(Date.UTC(2000, month - 1, day));
  d.setUTCFullYear(year);
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

/**
 * Kazakhstan's IIN (individuals) and BIN (legal entities) share one check digit: weights 1..11 mod 11;
 * a remainder of 10 retries with weights 3..11,1,2; a second 10 means the number cannot exist.
 */
export function kzIinBinChecksum(v: string): boolean {
  const d = digits(v);
  let c = weighted(d, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]) % 11;
  if (c === 10) c = weighted(d, [3, 4, 5, 6, 7, 8, 9, 10, 11, 1, 2]) % 11;
  return c !== 10 && c === d[11];
}

/** An IIN starts with the birth date YYMMDD; its 7th digit (1-6) gives the century and sex. */
function kzIin(v: string): boolean {
  if (!kzIinBinChecksum(v)) return false;
  const centuryDigit = Number(v[6]);
  if (centuryDigit < 1 || centuryDigit > 6) return true; // not a birth-date-coded IIN: checksum only
  const century = 1800 + 100 * Math.floor((centuryDigit - 1) / 2);
  return isRealDate(century + Number(v.slice(0, 2)), Number(v.slice(2, 4)), Number(v.slice(4, 6)));
}

/**
 * Uzbekistan's PINFL (JShShIR): century-and-sex digit (1-6), birth date DDMMYY, region, serial, and a
 * check digit with ICAO 9303's weights 7-3-1 mod 10 (the PINFL is printed in the ID card's MRZ).
 */
export function uzPinfl(v: string): boolean {
  const d = digits(v);
  if (weighted(d, [7, 3, 1, 7, 3, 1, 7, 3, 1, 7, 3, 1, 7]) % 10 !== d[13]) return false;
  const century = 1800 + 100 * Math.floor((d[0] - 1) / 2);
  return isRealDate(century + Number(v.slice(5, 7)), Number(v.slice(3, 5)), Number(v.slice(1, 3)));
}

/** Turkey's T.C. Kimlik No: d10 = (7 * odd sum - even sum) mod 10, d11 = sum of d1..d10 mod 10. */
export function trTckn(v: string): boolean {
  const d = digits(v);
  const odd = d[0] + d[2] + d[4] + d[6] + d[8];
  const even = d[1] + d[3] + d[5] + d[7];
  const d10 = (((odd * 7 - even) % 10) + 10) % 10;
  const d11 = d.slice(0, 10).reduce((a, b) => a + b, 0) % 10;
  return d[9] === d10 && d[10] === d11;
}

/** Turkey's VKN (tax number of legal entities), the Revenue Administration's check digit. */
export function trVkn(v: string): boolean {
  const d = digits(v);
  let sum = 0;
  for (let i = 0; i < 9; i++) {
    const m = (d[i] + 9 - i) % 10;
    let p = (m * 2 ** (9 - i)) % 9;
    if (m !== 0 && p === 0) p = 9;
    sum += p;
  }
  return (10 - (sum % 10)) % 10 === d[9];
}

const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

/** Spain's DNI (8 digits) and NIE (X/Y/Z + 7 digits): the letter is the number mod 23. */
export function esDniNie(v: string): boolean {
  const number = v.slice(0, -1).replace(/^[XYZ]/, (c) => String('XYZ'.indexOf(c)));
  return DNI_LETTERS[Number(number) % 23] === v[v.length - 1];
}

/** Spain's NIF of people without a DNI (K, L, M + 7 digits): the letter is the number mod 23. */
export function esNifKlm(v: string): boolean {
  return DNI_LETTERS[Number(v.slice(1, 8)) % 23] === v[8];
}

/**
 * Spain's CIF (legal entities, part of the NIF): the control is a digit or a letter of `JABCDEFGHI`;
 * some entity letters require the letter form (P, Q, R, S, N, W), others the digit (A, B, E, H).
 */
export function esCif(v: string): boolean {
  const d = digits(v.slice(1, 8));
  let sum = 0;
  d.forEach((x, i) => {
    if (i % 2 === 1) sum += x;
    else sum += Math.floor((x * 2) / 10) + ((x * 2) % 10);
  });
  const c = (10 - (sum % 10)) % 10;
  const letter = 'JABCDEFGHI'[c];
  const control = v[8];
  if ('PQRSNW'.includes(v[0])) return control === letter;
  if ('ABEH'.includes(v[0])) return control === String(c);
  return control === String(c) || control === letter;
}

/** Russia's INN: 10 digits (organisations) with one check digit, 12 (individuals) with two. */
export function ruInn(v: string): boolean {
  const d = digits(v);
  const check = (w: readonly number[]) => (weighted(d, w) % 11) % 10;
  if (v.length === 10) return check([2, 4, 10, 3, 5, 9, 4, 6, 8]) === d[9];
  return (
    check([7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) === d[10] && check([3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8]) === d[11]
  );
}

const S = {
  KZ_IIN: { id: 'KZ_IIN', pattern: /^\d{12}$/, verify: kzIin },
  KZ_IIN_BIN: { id: 'KZ_IIN_BIN', pattern: /^\d{12}$/, verify: kzIinBinChecksum },
  KZ_PASSPORT: { id: 'KZ_PASSPORT', pattern: /^N\d{8}$/ },
  UZ_PINFL: { id: 'UZ_PINFL', pattern: /^[1-6]\d{13}$/, verify: uzPinfl },
  UZ_TIN: { id: 'UZ_TIN', pattern: /^[2-7]\d{8}$/ },
  UZ_PASSPORT: { id: 'UZ_PASSPORT', pattern: /^[A-Z]{2}\d{7}$/ },
  TR_TCKN: { id: 'TR_TCKN', pattern: /^[1-9]\d{10}$/, verify: trTckn },
  TR_VKN: { id: 'TR_VKN', pattern: /^\d{10}$/, verify: trVkn },
  TR_PASSPORT: { id: 'TR_PASSPORT', pattern: /^[A-Z]\d{8}$/ },
  ES_DNI: { id: 'ES_DNI', pattern: /^\d{8}[A-Z]$/, verify: esDniNie },
  ES_NIE: { id: 'ES_NIE', pattern: /^[XYZ]\d{7}[A-Z]$/, verify: esDniNie },
  ES_NIF_KLM: { id: 'ES_NIF_KLM', pattern: /^[KLM]\d{7}[A-Z]$/, verify: esNifKlm },
  ES_CIF: { id: 'ES_CIF', pattern: /^[ABCDEFGHJNPQRSUVW]\d{7}[0-9A-J]$/, verify: esCif },
  ES_PASSPORT: { id: 'ES_PASSPORT', pattern: /^[A-Z]{3}\d{6}$/ },
  RU_PASSPORT: { id: 'RU_PASSPORT', pattern: /^\d{10}$/ },
  RU_INN: { id: 'RU_INN', pattern: /^(\d{10}|\d{12})$/, verify: ruInn },
  RU_FOREIGN_PASSPORT: { id: 'RU_FOREIGN_PASSPORT', pattern: /^\d{9}$/ },
  GENERIC_NATIONAL_ID: { id: 'GENERIC_NATIONAL_ID', pattern: /^[A-Z0-9]{4,20}$/ },
  GENERIC_TAX_ID: { id: 'GENERIC_TAX_ID', pattern: /^[A-Z0-9]{4,20}$/ },
  // ICAO 9303: the machine-readable document number field holds 9 characters; a few states issue
  // longer numbers through its extension, hence up to 12.
  GENERIC_PASSPORT: { id: 'GENERIC_PASSPORT', pattern: /^[A-Z0-9]{5,12}$/ },
} satisfies Record<string, IdentifierScheme>;

/** The schemes of a type in a country, in the order they are tried; others use the generic one. */
const BY_COUNTRY: Record<IdentifierType, Record<string, readonly IdentifierScheme[]>> = {
  national_id: {
    KZ: [S.KZ_IIN],
    UZ: [S.UZ_PINFL],
    TR: [S.TR_TCKN],
    ES: [S.ES_DNI, S.ES_NIE],
    RU: [S.RU_PASSPORT],
  },
  tax_id: {
    KZ: [S.KZ_IIN_BIN],
    UZ: [S.UZ_TIN, S.UZ_PINFL],
    TR: [S.TR_VKN, S.TR_TCKN],
    ES: [S.ES_DNI, S.ES_NIE, S.ES_NIF_KLM, S.ES_CIF],
    RU: [S.RU_INN],
  },
  passport: {
    KZ: [S.KZ_PASSPORT],
    UZ: [S.UZ_PASSPORT],
    TR: [S.TR_PASSPORT],
    ES: [S.ES_PASSPORT],
    RU: [S.RU_FOREIGN_PASSPORT],
  },
};

const GENERIC: Record<IdentifierType, IdentifierScheme> = {
  national_id: S.GENERIC_NATIONAL_ID,
  tax_id: S.GENERIC_TAX_ID,
  passport: S.GENERIC_PASSPORT,
};

export function schemesFor(type: IdentifierType, country: string): readonly IdentifierScheme[] {
  return BY_COUNTRY[type][country] ?? [GENERIC[type]];
}

/** Every scheme id, for the documentation test. */
export const IDENTIFIER_SCHEME_IDS: readonly string[] = Object.keys(S);

/** NFKC folds full-width digits and letters to ASCII; separators people type are dropped. */
export function normaliseIdentifier(raw: string): string {
  return raw
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[\s\-./]/g, '');
}

/** The normalised value and its scheme, or why it fails (`format` before `checksum`). */
export function checkIdentifier(type: IdentifierType, country: string, raw: string): IdentifierCheck {
  const value = normaliseIdentifier(raw);
  const schemes = schemesFor(type, country);
  const scheme = schemes.find((s) => s.pattern.test(value));
  if (!scheme) return { ok: false, problem: 'format', scheme: schemes.map((s) => s.id).join('|') };
  if (scheme.verify && !scheme.verify(value)) return { ok: false, problem: 'checksum', scheme: scheme.id };
  return { ok: true, value, scheme: scheme.id };
}
