/**
 * Name and birth-date comparison between a document and a case. Both sides are reduced to the MRZ
 * alphabet (A-Z, space) before comparing, so a Cyrillic case name can match a Latin MRZ.
 */

// ICAO Doc 9303 Part 3, transliteration of Cyrillic (Russian rows plus the Ukrainian and
// Belarusian letters the table lists). Ь is dropped, as in the table.
const ICAO_CYRILLIC: Record<string, string> = {
  А: 'A',
  Б: 'B',
  В: 'V',
  Г: 'G',
  Д: 'D',
  Е: 'E',
  Ё: 'E',
  Ж: 'ZH',
  З: 'Z',
  И: 'I',
  Й: 'I',
  К: 'K',
  Л: 'L',
  М: 'M',
  Н: 'N',
  О: 'O',
  П: 'P',
  Р: 'R',
  С: 'S',
  Т: 'T',
  У: 'U',
  Ф: 'F',
  Х: 'KH',
  Ц: 'TS',
  Ч: 'CH',
  Ш: 'SH',
  Щ: 'SHCH',
  Ъ: 'IE',
  Ы: 'Y',
  Ь: '',
  Э: 'E',
  Ю: 'IU',
  Я: 'IA',
  І: 'I',
  Ї: 'I',
  Є: 'IE',
  Ґ: 'G',
  Ў: 'U',
};

// Kazakh letters are not in the Doc 9303 table; this mapping is ours (the nearest ICAO Latin
// letter) and is listed in the README as such.
const KAZAKH_EXTENSION: Record<string, string> = {
  Ә: 'A',
  Ғ: 'G',
  Қ: 'K',
  Ң: 'N',
  Ө: 'O',
  Ұ: 'U',
  Ү: 'U',
  Һ: 'H',
};

// Latin letters without a canonical decomposition, so NFD alone would not reduce them.
const LATIN_SPECIAL: Record<string, string> = {
  ı: 'I',
  ß: 'SS',
  Æ: 'AE',
  æ: 'AE',
  Ø: 'O',
  ø: 'O',
  Đ: 'D',
  đ: 'D',
  Ł: 'L',
  ł: 'L',
  Œ: 'OE',
  œ: 'OE',
};

export function transliterateCyrillic(text: string): string {
  let out = '';
  for (const ch of text) {
    const upper = ch.toUpperCase();
    out += ICAO_CYRILLIC[upper] ?? KAZAKH_EXTENSION[upper] ?? ch;
  }
  return out;
}

/**
 * Uppercase A-Z words separated by single spaces: `<` fillers and punctuation become spaces,
 * Cyrillic is transliterated, diacritics are dropped (Ş -> S, Ö -> O, Ñ -> N).
 */
export function normalizeName(text: string): string {
  let s = '';
  for (const ch of transliterateCyrillic(text)) s += LATIN_SPECIAL[ch] ?? ch;
  return s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toUpperCase()
    .replace(/[^A-Z]+/g, ' ')
    .trim();
}

export type NameMatchReason =
  'EXACT' | 'TOKENS_REORDERED' | 'CASE_NAME_SUBSET' | 'DOCUMENT_NAME_SUBSET' | 'MISMATCH' | 'EMPTY';

export interface NameMatchResult {
  matched: boolean;
  reason: NameMatchReason;
  documentName: string;
  caseName: string;
}

const tokens = (s: string) => (s ? s.split(' ') : []);

/**
 * EXACT and TOKENS_REORDERED match. A subset (one side lacks a token, typically a patronymic or a
 * second given name) is reported as a non-match with its own reason so a rule can send it to review.
 */
export function matchName(documentName: string, caseName: string): NameMatchResult {
  const doc = normalizeName(documentName);
  const cas = normalizeName(caseName);
  const base = { documentName: doc, caseName: cas };
  if (!doc || !cas) return { matched: false, reason: 'EMPTY', ...base };
  if (doc === cas) return { matched: true, reason: 'EXACT', ...base };
  const d = tokens(doc);
  const c = tokens(cas);
  const sameMultiset = d.length === c.length && [...d].sort().join(' ') === [...c].sort().join(' ');
  if (sameMultiset) return { matched: true, reason: 'TOKENS_REORDERED', ...base };
  if (c.every((t) => d.includes(t))) return { matched: false, reason: 'CASE_NAME_SUBSET', ...base };
  if (d.every((t) => c.includes(t))) return { matched: false, reason: 'DOCUMENT_NAME_SUBSET', ...base };
  return { matched: false, reason: 'MISMATCH', ...base };
}

export type BirthDateMatchReason = 'EQUAL' | 'DIFFERENT' | 'DOCUMENT_DATE_MISSING' | 'CASE_DATE_INVALID';

export interface BirthDateMatchResult {
  matched: boolean;
  reason: BirthDateMatchReason;
  documentDate: string | null;
  caseDate: string;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Both dates as ISO YYYY-MM-DD (the MRZ parser returns that; null when unreadable). */
export function matchBirthDate(documentDate: string | null, caseDate: string): BirthDateMatchResult {
  const base = { documentDate, caseDate };
  if (!ISO_DATE.test(caseDate) || Number.isNaN(Date.parse(`${caseDate}T00:00:00Z`))) {
    return { matched: false, reason: 'CASE_DATE_INVALID', ...base };
  }
  if (documentDate === null) return { matched: false, reason: 'DOCUMENT_DATE_MISSING', ...base };
  return documentDate === caseDate
    ? { matched: true, reason: 'EQUAL', ...base }
    : { matched: false, reason: 'DIFFERENT', ...base };
}
