/**
 * Machine readable zone (ICAO Doc 9303 Parts 3, 4, 5, 6): TD1 (3x30), TD2 (2x36), TD3 (2x44).
 * Every check digit is reported as a rule with its evidence, so a summary can cite it.
 */
export type MrzFormat = 'TD1' | 'TD2' | 'TD3';

export type MrzRuleId =
  | 'MRZ_FORMAT'
  | 'MRZ_CHARSET'
  | 'DOCUMENT_NUMBER_CHECK_DIGIT'
  | 'BIRTH_DATE_CHECK_DIGIT'
  | 'EXPIRY_DATE_CHECK_DIGIT'
  | 'OPTIONAL_DATA_CHECK_DIGIT'
  | 'COMPOSITE_CHECK_DIGIT'
  | 'BIRTH_DATE_VALID'
  | 'EXPIRY_DATE_VALID';

export interface MrzRuleResult {
  rule: MrzRuleId;
  passed: boolean;
  /** The field the rule covers, as read from the MRZ (concatenated for the composite). */
  field: string;
  expected?: string;
  found?: string;
  detail?: string;
}

export interface MrzFields {
  documentCode: string;
  issuingState: string;
  documentNumber: string;
  primaryIdentifier: string;
  secondaryIdentifier: string;
  nationality: string;
  /** ISO date (YYYY-MM-DD) or null when the MRZ date is not a real calendar date. */
  birthDate: string | null;
  sex: 'M' | 'F' | 'X';
  expiryDate: string | null;
  optionalData: string;
  optionalData2?: string;
}

export interface MrzResult {
  format: MrzFormat | null;
  valid: boolean;
  fields: MrzFields | null;
  rules: MrzRuleResult[];
}

const WEIGHTS = [7, 3, 1];

function charValue(ch: string): number {
  if (ch === '<') return 0;
  const code = ch.charCodeAt(0);
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 65 && code <= 90) return code - 55;
  throw new Error(`not an MRZ character: ${ch}`);
}

/** Doc 9303 Part 3, 4.9: weights 7-3-1 repeating, sum modulo 10. */
export function mrzCheckDigit(data: string): number {
  let sum = 0;
  for (let i = 0; i < data.length; i++) sum += charValue(data[i]) * WEIGHTS[i % 3];
  return sum % 10;
}

function digitRule(
  rule: MrzRuleId,
  field: string,
  found: string,
  opts: { fillerAllowed?: boolean } = {},
): MrzRuleResult {
  const expected = String(mrzCheckDigit(field));
  // An empty optional field may carry a filler instead of 0 as its check digit (Part 4, 4.2.2.2).
  if (opts.fillerAllowed && found === '<' && /^<*$/.test(field)) {
    return { rule, passed: true, field, expected: '<', found };
  }
  return { rule, passed: expected === found, field, expected, found };
}

/**
 * YYMMDD -> ISO. Century rule (Doc 9303 gives none; this is ours): an expiry date is always 20YY;
 * a birth date is 20YY when that is not after the reference date, otherwise 19YY (nobody is born
 * in the future; holders older than 100 are read as a century too young).
 */
export function mrzDateToIso(yymmdd: string, kind: 'birth' | 'expiry', referenceDate: Date): string | null {
  if (!/^\d{6}$/.test(yymmdd)) return null;
  const yy = Number(yymmdd.slice(0, 2));
  const mm = Number(yymmdd.slice(2, 4));
  const dd = Number(yymmdd.slice(4, 6));
  let year = 2000 + yy;
  if (kind === 'birth') {
    const candidate = Date.UTC(year, mm - 1, dd);
    if (candidate > referenceDate.getTime()) year -= 100;
  }
  const d = new Date(Date.UTC(year, mm - 1, dd));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== mm - 1 || d.getUTCDate() !== dd) return null;
  return d.toISOString().slice(0, 10);
}

function trimFiller(s: string): string {
  return s.replace(/<+$/, '');
}

function splitName(nameField: string): { primary: string; secondary: string } {
  const idx = nameField.indexOf('<<');
  const primaryRaw = idx === -1 ? nameField : nameField.slice(0, idx);
  const secondaryRaw = idx === -1 ? '' : nameField.slice(idx + 2);
  const clean = (s: string) => trimFiller(s).replace(/</g, ' ').trim();
  return { primary: clean(primaryRaw), secondary: clean(secondaryRaw) };
}

function parseSex(ch: string): 'M' | 'F' | 'X' {
  return ch === 'M' || ch === 'F' ? ch : 'X';
}

function dateRules(
  birthRaw: string,
  expiryRaw: string,
  ref: Date,
): [MrzRuleResult[], string | null, string | null] {
  const birth = mrzDateToIso(birthRaw, 'birth', ref);
  const expiry = mrzDateToIso(expiryRaw, 'expiry', ref);
  return [
    [
      { rule: 'BIRTH_DATE_VALID', passed: birth !== null, field: birthRaw, found: birth ?? undefined },
      { rule: 'EXPIRY_DATE_VALID', passed: expiry !== null, field: expiryRaw, found: expiry ?? undefined },
    ],
    birth,
    expiry,
  ];
}

export interface ParseMrzOptions {
  /** Reference for the birth-date century rule; defaults to now. */
  referenceDate?: Date;
}

/** Accepts the MRZ as lines (array) or as one text with line breaks. Never throws on bad input. */
export function parseMrz(input: string | readonly string[], options: ParseMrzOptions = {}): MrzResult {
  const ref = options.referenceDate ?? new Date();
  const lines = (typeof input === 'string' ? input.split(/\r?\n/) : [...input])
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  const shape = lines.map((l) => l.length).join('x');
  let format: MrzFormat | null = null;
  if (lines.length === 3 && shape === '30x30x30') format = 'TD1';
  else if (lines.length === 2 && shape === '36x36') format = 'TD2';
  else if (lines.length === 2 && shape === '44x44') format = 'TD3';
  if (!format) {
    return {
      format: null,
      valid: false,
      fields: null,
      rules: [{ rule: 'MRZ_FORMAT', passed: false, field: shape, detail: 'expected 3x30, 2x36 or 2x44' }],
    };
  }
  const rules: MrzRuleResult[] = [{ rule: 'MRZ_FORMAT', passed: true, field: shape, found: format }];
  const bad = lines.find((l) => !/^[A-Z0-9<]+$/.test(l));
  if (bad !== undefined) {
    rules.push({ rule: 'MRZ_CHARSET', passed: false, field: bad, detail: 'only A-Z, 0-9 and < are allowed' });
    return { format, valid: false, fields: null, rules };
  }
  rules.push({ rule: 'MRZ_CHARSET', passed: true, field: lines.join('\n') });
  const parsed = format === 'TD1' ? parseTd1(lines, ref) : parseTd2or3(lines, format, ref);
  rules.push(...parsed.rules);
  return { format, valid: rules.every((r) => r.passed), fields: parsed.fields, rules };
}

function parseTd1(lines: string[], ref: Date): { fields: MrzFields; rules: MrzRuleResult[] } {
  const [l1, l2, l3] = lines;
  let docNumber = l1.slice(5, 14);
  let docDigit = l1[14];
  let optional1 = l1.slice(15, 30);
  // Part 5: a number longer than 9 characters puts `<` in position 15 and continues in the optional
  // data, followed by the check digit over the whole number.
  const overflow = docDigit === '<' && optional1[0] !== '<' ? /^[A-Z0-9]+/.exec(optional1)?.[0] : undefined;
  if (overflow) {
    docNumber += overflow.slice(0, -1);
    docDigit = overflow.slice(-1);
    optional1 = optional1.slice(overflow.length + 1);
  }
  const birthRaw = l2.slice(0, 6);
  const expiryRaw = l2.slice(8, 14);
  const rules: MrzRuleResult[] = [
    digitRule('DOCUMENT_NUMBER_CHECK_DIGIT', docNumber, docDigit),
    digitRule('BIRTH_DATE_CHECK_DIGIT', birthRaw, l2[6]),
    digitRule('EXPIRY_DATE_CHECK_DIGIT', expiryRaw, l2[14]),
    // Part 5: upper line 6-30, middle line 1-7, 9-15, 19-29.
    digitRule(
      'COMPOSITE_CHECK_DIGIT',
      l1.slice(5, 30) + l2.slice(0, 7) + l2.slice(8, 15) + l2.slice(18, 29),
      l2[29],
    ),
  ];
  const [dRules, birth, expiry] = dateRules(birthRaw, expiryRaw, ref);
  const name = splitName(l3);
  return {
    rules: [...rules, ...dRules],
    fields: {
      documentCode: trimFiller(l1.slice(0, 2)),
      issuingState: trimFiller(l1.slice(2, 5)),
      documentNumber: trimFiller(docNumber),
      primaryIdentifier: name.primary,
      secondaryIdentifier: name.secondary,
      nationality: trimFiller(l2.slice(15, 18)),
      birthDate: birth,
      sex: parseSex(l2[7]),
      expiryDate: expiry,
      optionalData: trimFiller(optional1),
      optionalData2: trimFiller(l2.slice(18, 29)),
    },
  };
}

function parseTd2or3(
  lines: string[],
  format: 'TD2' | 'TD3',
  ref: Date,
): { fields: MrzFields; rules: MrzRuleResult[] } {
  const [l1, l2] = lines;
  const width = l1.length;
  const docNumber = l2.slice(0, 9);
  const birthRaw = l2.slice(13, 19);
  const expiryRaw = l2.slice(21, 27);
  const optEnd = format === 'TD3' ? 42 : 35;
  const optional = l2.slice(28, optEnd);
  const rules: MrzRuleResult[] = [
    digitRule('DOCUMENT_NUMBER_CHECK_DIGIT', docNumber, l2[9]),
    digitRule('BIRTH_DATE_CHECK_DIGIT', birthRaw, l2[19]),
    digitRule('EXPIRY_DATE_CHECK_DIGIT', expiryRaw, l2[27]),
  ];
  // Only TD3 carries a check digit for the optional data (personal number); TD2 does not.
  if (format === 'TD3') {
    rules.push(digitRule('OPTIONAL_DATA_CHECK_DIGIT', optional, l2[42], { fillerAllowed: true }));
  }
  const compositeData = l2.slice(0, 10) + l2.slice(13, 20) + l2.slice(21, width - 1);
  rules.push(digitRule('COMPOSITE_CHECK_DIGIT', compositeData, l2[width - 1]));
  const [dRules, birth, expiry] = dateRules(birthRaw, expiryRaw, ref);
  const name = splitName(l1.slice(5));
  return {
    rules: [...rules, ...dRules],
    fields: {
      documentCode: trimFiller(l1.slice(0, 2)),
      issuingState: trimFiller(l1.slice(2, 5)),
      documentNumber: trimFiller(docNumber),
      primaryIdentifier: name.primary,
      secondaryIdentifier: name.secondary,
      nationality: trimFiller(l2.slice(10, 13)),
      birthDate: birth,
      sex: parseSex(l2[20]),
      expiryDate: expiry,
      optionalData: trimFiller(optional),
    },
  };
}
