import { mrzCheckDigit, mrzDateToIso, parseMrz, type MrzRuleId } from './mrz';

// Specimens of ICAO Doc 9303 Part 4 (TD3), Part 5 (TD1) and Part 6 (TD2): the fictitious state UTOPIA.
const TD3 = ['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10'];
const TD1 = [
  'I<UTOD231458907<<<<<<<<<<<<<<<',
  '7408122F1204159UTO<<<<<<<<<<<6',
  'ERIKSSON<<ANNA<MARIA<<<<<<<<<<',
];
const TD2 = ['I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<', 'D231458907UTO7408122F1204159<<<<<<<6'];
const ref = new Date('2026-01-01T00:00:00Z');

function failed(lines: string[]): MrzRuleId[] {
  return parseMrz(lines, { referenceDate: ref })
    .rules.filter((r) => !r.passed)
    .map((r) => r.rule);
}

function corrupt(lines: string[], line: number, pos: number): string[] {
  const out = [...lines];
  const ch = out[line][pos];
  // A replacement whose value differs modulo 10, or a 7-3-1 check could not notice it.
  const value = (c: string) => (c === '<' ? 0 : /\d/.test(c) ? Number(c) : c.charCodeAt(0) - 55);
  const repl = ['1', '2'].find((c) => (value(c) - value(ch)) % 10 !== 0) as string;
  out[line] = out[line].slice(0, pos) + repl + out[line].slice(pos + 1);
  return out;
}

describe('mrzCheckDigit', () => {
  it('weights 7-3-1 with < as 0 and letters from 10', () => {
    expect(mrzCheckDigit('L898902C3')).toBe(6);
    expect(mrzCheckDigit('740812')).toBe(2);
    expect(mrzCheckDigit('120415')).toBe(9);
    expect(mrzCheckDigit('<<<<')).toBe(0);
    expect(mrzCheckDigit('A')).toBe(0); // 10*7 = 70
    expect(mrzCheckDigit('Z')).toBe(5); // 35*7 = 245
  });
});

describe('parseMrz specimens', () => {
  it('TD3 passport', () => {
    const r = parseMrz(TD3, { referenceDate: ref });
    expect(r.format).toBe('TD3');
    expect(r.valid).toBe(true);
    expect(r.fields).toEqual({
      documentCode: 'P',
      issuingState: 'UTO',
      documentNumber: 'L898902C3',
      primaryIdentifier: 'ERIKSSON',
      secondaryIdentifier: 'ANNA MARIA',
      nationality: 'UTO',
      birthDate: '1974-08-12',
      sex: 'F',
      expiryDate: '2012-04-15',
      optionalData: 'ZE184226B',
    });
    expect(r.rules.find((x) => x.rule === 'COMPOSITE_CHECK_DIGIT')).toMatchObject({
      expected: '0',
      found: '0',
    });
  });

  it('TD1 identity card', () => {
    const r = parseMrz(TD1.join('\n'), { referenceDate: ref });
    expect(r.format).toBe('TD1');
    expect(r.valid).toBe(true);
    expect(r.fields).toMatchObject({
      documentCode: 'I',
      documentNumber: 'D23145890',
      primaryIdentifier: 'ERIKSSON',
      secondaryIdentifier: 'ANNA MARIA',
      birthDate: '1974-08-12',
      expiryDate: '2012-04-15',
    });
  });

  it('TD2', () => {
    const r = parseMrz(TD2, { referenceDate: ref });
    expect(r.format).toBe('TD2');
    expect(r.valid).toBe(true);
    expect(r.rules.map((x) => x.rule)).not.toContain('OPTIONAL_DATA_CHECK_DIGIT');
  });

  it('rejects a wrong shape and foreign characters', () => {
    expect(parseMrz(['abc'], {}).rules[0]).toMatchObject({ rule: 'MRZ_FORMAT', passed: false });
    expect(failed([TD3[0].replace('ANNA', 'ANNä'), TD3[1]])).toEqual(['MRZ_CHARSET']);
  });
});

describe('each single-character corruption fails the right check', () => {
  const td3Cases: Array<[number, MrzRuleId[]]> = [];
  for (let i = 0; i <= 8; i++) td3Cases.push([i, ['DOCUMENT_NUMBER_CHECK_DIGIT', 'COMPOSITE_CHECK_DIGIT']]);
  td3Cases.push([9, ['DOCUMENT_NUMBER_CHECK_DIGIT', 'COMPOSITE_CHECK_DIGIT']]);
  for (let i = 13; i <= 18; i++) td3Cases.push([i, ['BIRTH_DATE_CHECK_DIGIT', 'COMPOSITE_CHECK_DIGIT']]);
  td3Cases.push([19, ['BIRTH_DATE_CHECK_DIGIT', 'COMPOSITE_CHECK_DIGIT']]);
  for (let i = 21; i <= 26; i++) td3Cases.push([i, ['EXPIRY_DATE_CHECK_DIGIT', 'COMPOSITE_CHECK_DIGIT']]);
  td3Cases.push([27, ['EXPIRY_DATE_CHECK_DIGIT', 'COMPOSITE_CHECK_DIGIT']]);
  for (let i = 28; i <= 42; i++) td3Cases.push([i, ['OPTIONAL_DATA_CHECK_DIGIT', 'COMPOSITE_CHECK_DIGIT']]);
  td3Cases.push([43, ['COMPOSITE_CHECK_DIGIT']]);

  it.each(td3Cases)('TD3 line 2 position %i', (pos, expected) => {
    const rules = failed(corrupt(TD3, 1, pos)).filter((r) => !r.endsWith('_VALID'));
    expect(rules).toEqual(expected);
  });

  it.each([
    [0, 14, 'DOCUMENT_NUMBER_CHECK_DIGIT'],
    [1, 6, 'BIRTH_DATE_CHECK_DIGIT'],
    [1, 14, 'EXPIRY_DATE_CHECK_DIGIT'],
  ] as const)('TD1 line %i position %i', (line, pos, rule) => {
    expect(failed(corrupt(TD1, line, pos))).toEqual([rule, 'COMPOSITE_CHECK_DIGIT']);
  });

  it('TD1 composite digit alone, and optional data only in the composite', () => {
    expect(failed(corrupt(TD1, 1, 29))).toEqual(['COMPOSITE_CHECK_DIGIT']);
    expect(failed(corrupt(TD1, 0, 20))).toEqual(['COMPOSITE_CHECK_DIGIT']);
  });

  it('TD2 document number and composite', () => {
    expect(failed(corrupt(TD2, 1, 2))).toEqual(['DOCUMENT_NUMBER_CHECK_DIGIT', 'COMPOSITE_CHECK_DIGIT']);
    expect(failed(corrupt(TD2, 1, 35))).toEqual(['COMPOSITE_CHECK_DIGIT']);
  });

  it('evidence names the field, expected and found digit', () => {
    const r = parseMrz(corrupt(TD3, 1, 9), { referenceDate: ref });
    expect(r.rules.find((x) => x.rule === 'DOCUMENT_NUMBER_CHECK_DIGIT')).toEqual({
      rule: 'DOCUMENT_NUMBER_CHECK_DIGIT',
      passed: false,
      field: 'L898902C3',
      expected: '6',
      found: '1',
    });
  });
});

describe('TD1 document number longer than 9 characters', () => {
  // Built by hand following Part 5: number D23145890734, digit over the whole number after the overflow.
  const number = 'D23145890734';
  const line1 = (digit: string) => `I<UTO${number.slice(0, 9)}<${number.slice(9)}${digit}<`.padEnd(30, '<');
  const withComposite = (l1: string) => {
    const l2 = '7408122F1204159UTO<<<<<<<<<<<';
    return [
      l1,
      l2 + String(mrzCheckDigit(l1.slice(5, 30) + l2.slice(0, 7) + l2.slice(8, 15) + l2.slice(18, 29))),
      TD1[2],
    ];
  };

  it('reads the whole number and checks its digit', () => {
    const r = parseMrz(withComposite(line1(String(mrzCheckDigit(number)))), { referenceDate: ref });
    expect(r.valid).toBe(true);
    expect(r.fields).toMatchObject({ documentNumber: number, optionalData: '' });
  });

  it('a wrong overflow digit fails the document number rule', () => {
    const wrong = String((mrzCheckDigit(number) + 1) % 10);
    expect(failed(withComposite(line1(wrong)))).toEqual(['DOCUMENT_NUMBER_CHECK_DIGIT']);
  });
});

describe('mrzDateToIso century rule', () => {
  it('birth dates never lie in the future; expiry is 20YY; impossible dates are null', () => {
    expect(mrzDateToIso('261231', 'birth', ref)).toBe('1926-12-31');
    expect(mrzDateToIso('251231', 'birth', ref)).toBe('2025-12-31');
    expect(mrzDateToIso('051231', 'birth', ref)).toBe('2005-12-31');
    expect(mrzDateToIso('300101', 'expiry', ref)).toBe('2030-01-01');
    expect(mrzDateToIso('740231', 'birth', ref)).toBeNull();
  });
});
