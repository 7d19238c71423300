/**
 * Bank account validation (docs/lending/customers.md, "Bank details"). Pure functions.
 *
 * - IBAN (ISO 13616): two letters of a country in the SWIFT IBAN registry, two check digits, the
 *   country's exact length, and mod-97 = 1.
 * - A local account number with a bank code, for countries whose domestic payments do not use the IBAN:
 *   Russia (20-digit account + BIK, with the Bank of Russia's control key), Uzbekistan (20-digit
 *   account + 5-digit MFO), the United States (4-17 digit account + ABA routing number with its check
 *   digit) and, elsewhere outside the IBAN registry, 4-34 letters or digits with a 3-11 character bank
 *   code. In an IBAN country (other than Russia) the IBAN is required.
 */

/** Lengths of the SWIFT IBAN registry (release of 2025), by country. */
export const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BI: 27, BR: 29, BY: 28,
  CH: 21, CR: 22, CY: 28, CZ: 24, DE: 22, DJ: 27, DK: 18, DO: 28, EE: 20, EG: 29, ES: 24, FI: 18,
  FK: 18, FO: 18, FR: 27, GB: 22, GE: 22, GI: 23, GL: 18, GR: 27, GT: 28, HN: 28, HR: 21, HU: 28,
  IE: 22, IL: 23, IQ: 23, IS: 26, IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LC: 32, LI: 21, LT: 20,
  LU: 20, LV: 21, LY: 25, MC: 27, MD: 24, ME: 22, MK: 19, MN: 20, MR: 27, MT: 31, MU: 30, NI: 28,
  NL: 18, NO: 15, OM: 23, PK: 24, PL: 28, PS: 29, PT: 25, QA: 29, RO: 24, RS: 22, RU: 33, SA: 24,
  SC: 31, SD: 18, SE: 24, SI: 19, SK: 24, SM: 27, SO: 23, ST: 25, SV: 28, TL: 23, TN: 24, TR: 26,
  UA: 29, VA: 22, VG: 24, XK: 20, YE: 30,
}; // prettier-ignore

export type IbanCheck =
  | { ok: true; iban: string; country: string }
  | { ok: false; problem: 'format' | 'country' | 'length' | 'checksum'; expectedLength?: number };

/** Spaces dropped, upper case: the electronic form. */
export function normaliseIban(raw: string): string {
  return raw.replace(/\s/g, '').toUpperCase();
}

/** ISO 7064 mod 97-10 of an alphanumeric string (letters count as 10..35), piecewise to stay exact. */
export function mod97(s: string): number {
  let rest = 0;
  for (const ch of s) {
    const n = ch >= 'A' && ch <= 'Z' ? ch.charCodeAt(0) - 55 : Number(ch);
    rest = n > 9 ? (rest * 100 + n) % 97 : (rest * 10 + n) % 97;
  }
  return rest;
}

export function checkIban(raw: string): IbanCheck {
  const iban = normaliseIban(raw);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{1,30}$/.test(iban)) return { ok: false, problem: 'format' };
  const country = iban.slice(0, 2);
  const expectedLength = IBAN_LENGTHS[country];
  if (!expectedLength) return { ok: false, problem: 'country' };
  if (iban.length !== expectedLength) return { ok: false, problem: 'length', expectedLength };
  if (mod97(iban.slice(4) + iban.slice(0, 4)) !== 1) return { ok: false, problem: 'checksum' };
  return { ok: true, iban, country };
}

/** SWIFT BIC (ISO 9362): bank, country, location and an optional branch. */
export const BIC_PATTERN = /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;

export interface LocalScheme {
  readonly id: string;
  readonly account: RegExp;
  readonly bankCode: RegExp;
  readonly verify?: (account: string, bankCode: string) => boolean;
}

/** Bank of Russia: the last 3 digits of the BIK then the account, weights 7-1-3, sum mod 10 = 0. */
export function ruAccountKey(account: string, bik: string): boolean {
  const d = [...`${bik.slice(-3)}${account}`].map(Number);
  return d.reduce((sum, x, i) => sum + x * [7, 1, 3][i % 3], 0) % 10 === 0;
}

/** ABA routing number: 3-7-1 weights, sum mod 10 = 0. */
export function abaRouting(_account: string, routing: string): boolean {
  const d = [...routing].map(Number);
  return d.reduce((sum, x, i) => sum + x * [3, 7, 1][i % 3], 0) % 10 === 0;
}

const LOCAL: Readonly<Record<string, LocalScheme>> = {
  RU: { id: 'RU_ACCOUNT_BIK', account: /^\d{20}$/, bankCode: /^04\d{7}$/, verify: ruAccountKey },
  UZ: { id: 'UZ_ACCOUNT_MFO', account: /^\d{20}$/, bankCode: /^\d{5}$/ },
  US: { id: 'US_ACCOUNT_ABA', account: /^\d{4,17}$/, bankCode: /^\d{9}$/, verify: abaRouting },
};

const GENERIC_LOCAL: LocalScheme = {
  id: 'GENERIC_ACCOUNT',
  account: /^[A-Z0-9]{4,34}$/,
  bankCode: /^[A-Z0-9]{3,11}$/,
};

/** Where the IBAN is the domestic form, a local number is refused; Russia pays domestically by BIK. */
export function localSchemeFor(country: string): LocalScheme | 'iban-required' {
  if (LOCAL[country]) return LOCAL[country];
  return IBAN_LENGTHS[country] ? 'iban-required' : GENERIC_LOCAL;
}

export type LocalCheck =
  | { ok: true; accountNumber: string; bankCode: string; scheme: string }
  | { ok: false; problem: 'iban_required' | 'format' | 'checksum'; scheme: string };

const compact = (v: string) => v.replace(/[\s-]/g, '').toUpperCase();

export function checkLocalAccount(country: string, rawAccount: string, rawBankCode: string): LocalCheck {
  const scheme = localSchemeFor(country);
  if (scheme === 'iban-required') return { ok: false, problem: 'iban_required', scheme: 'IBAN' };
  const accountNumber = compact(rawAccount);
  const bankCode = compact(rawBankCode);
  if (!scheme.account.test(accountNumber) || !scheme.bankCode.test(bankCode))
    return { ok: false, problem: 'format', scheme: scheme.id };
  if (scheme.verify && !scheme.verify(accountNumber, bankCode))
    return { ok: false, problem: 'checksum', scheme: scheme.id };
  return { ok: true, accountNumber, bankCode, scheme: scheme.id };
}
