import PDFDocument from 'pdfkit';
import { mrzCheckDigit } from '@platform/verification-checks';
import {
  documentSteps,
  documentVerdict,
  duplicateStep,
  findMrzLines,
  type CaseFacts,
} from './document-steps';
import type { StepResult } from './check-steps';
import { pdfTextLines } from './pdf-text';

// ICAO Doc 9303 Part 4 specimen (UTOPIA), expiring 2012-04-15; `valid()` moves its expiry to 2034.
const SPECIMEN = [
  'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
  'L898902C36UTO7408122F1204159ZE184226B<<<<<10',
];
function withExpiry(yymmdd: string): string[] {
  const base = `L898902C36UTO7408122F${yymmdd}${mrzCheckDigit(yymmdd)}ZE184226B<<<<<1`;
  return [SPECIMEN[0], base + mrzCheckDigit(base.slice(0, 10) + base.slice(13, 20) + base.slice(21, 43))];
}
const VALID = withExpiry('340415');
const NOW = new Date('2026-06-01T00:00:00Z');
const CASE: CaseFacts = { applicantName: 'Anna Maria Eriksson', applicantBirthDate: '1974-08-12' };

function pdf(lines: string[], extra?: (d: PDFKit.PDFDocument) => void): Promise<Buffer> {
  return new Promise((resolve) => {
    const d = new PDFDocument({ size: 'A4' });
    const parts: Buffer[] = [];
    d.on('data', (b: Buffer) => parts.push(b));
    d.on('end', () => resolve(Buffer.concat(parts)));
    d.font('Helvetica').fontSize(14).text('PASSPORT (specimen)');
    extra?.(d);
    d.font('Courier').fontSize(10);
    for (const l of lines) d.text(l);
    d.end();
  });
}

function png(texts: Record<string, string>): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    return Buffer.concat([len, Buffer.from(type, 'latin1'), data, Buffer.alloc(4)]);
  };
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', Buffer.alloc(13)),
    ...Object.entries(texts).map(([k, v]) => chunk('tEXt', Buffer.from(`${k}\0${v}`, 'latin1'))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const by = (results: StepResult[]) => Object.fromEntries(results.map((r) => [r.step, r]));

describe('document steps', () => {
  it('read a valid TD3 MRZ from a PDF text layer and pass every step', async () => {
    const body = await pdf(VALID);
    expect(pdfTextLines(body)).toEqual(expect.arrayContaining(VALID));
    const r = documentSteps({ body, declaredContentType: 'application/pdf' }, CASE, NOW);
    const s = by(r.results);
    expect(Object.fromEntries(r.results.map((x) => [x.step, x.outcome]))).toEqual({
      'file-type': 'passed',
      'document-parse': 'passed',
      'mrz-check-digits': 'passed',
      'document-expiry': 'passed',
      'name-match': 'passed',
      'birth-date-match': 'passed',
    });
    expect(s['document-parse'].evidence).toMatchObject({
      source: 'pdf-text',
      format: 'TD3',
      lines: VALID,
      mrz: { documentNumber: 'L898902C3', issuingState: 'UTO', expiryDate: '2034-04-15' },
    });
    expect(s['name-match'].evidence).toEqual({
      documentName: 'ANNA MARIA ERIKSSON',
      caseName: 'ANNA MARIA ERIKSSON',
      reason: 'EXACT',
    });
    expect(documentVerdict(r.results)).toEqual({ accepted: true, reason: null });
  });

  it('fail a tampered check digit citing the rule, its line and position', async () => {
    const tampered = [
      VALID[0],
      `${VALID[1].slice(0, 9)}${(Number(VALID[1][9]) + 1) % 10}${VALID[1].slice(10)}`,
    ];
    const r = documentSteps({ body: await pdf(tampered), declaredContentType: 'application/pdf' }, CASE, NOW);
    const mrz = by(r.results)['mrz-check-digits'];
    expect(mrz.outcome).toBe('failed');
    expect(mrz.rule).toBe('ICAO9303.check-digit.document-number');
    expect(mrz.evidence.rules).toContainEqual(
      expect.objectContaining({
        rule: 'ICAO9303.check-digit.document-number',
        passed: false,
        line: 2,
        position: 10,
        expected: VALID[1][9],
        mrzLine: tampered[1],
      }),
    );
    expect(documentVerdict(r.results)).toEqual({ accepted: false, reason: 'MRZ_CHECK_FAILED' });
  });

  it('fail an expired document (the specimen itself, 2012)', async () => {
    const r = documentSteps({ body: await pdf(SPECIMEN), declaredContentType: 'application/pdf' }, CASE, NOW);
    expect(by(r.results)['document-expiry']).toMatchObject({
      outcome: 'failed',
      rule: 'document-expiry.expired',
      evidence: { expiryDate: '2012-04-15', checkedOn: '2026-06-01' },
    });
    expect(documentVerdict(r.results)).toEqual({ accepted: false, reason: 'DOCUMENT_EXPIRED' });
  });

  it('trust the bytes, not the declared type: a PNG declared as PDF fails and nothing else runs', () => {
    const r = documentSteps({ body: png({}), declaredContentType: 'application/pdf' }, CASE, NOW);
    const s = by(r.results);
    expect(s['file-type']).toMatchObject({
      outcome: 'failed',
      rule: 'file-type.declared-mismatch',
      evidence: { declaredContentType: 'application/pdf', detectedType: 'image/png' },
    });
    expect(s['document-parse'].outcome).toBe('skipped');
    expect(documentVerdict(r.results)).toEqual({ accepted: false, reason: 'FILE_TYPE_MISMATCH' });
  });

  it('say honestly that images are not OCR-ed, unless the MRZ is in their text metadata', () => {
    const plain = by(documentSteps({ body: png({}), declaredContentType: 'image/png' }, CASE, NOW).results);
    expect(plain['document-parse']).toMatchObject({
      outcome: 'skipped',
      rule: 'document-parse.image-no-ocr',
    });
    expect(plain['document-parse'].detail).toMatch(/no OCR/);
    expect(plain['mrz-check-digits'].outcome).toBe('skipped');
    const tagged = by(
      documentSteps({ body: png({ MRZ: VALID.join('\n') }), declaredContentType: 'image/png' }, CASE, NOW)
        .results,
    );
    expect(tagged['document-parse']).toMatchObject({
      outcome: 'passed',
      rule: 'document-parse.image-metadata-mrz',
      evidence: { source: 'png:tEXt:MRZ' },
    });
    expect(tagged['mrz-check-digits'].outcome).toBe('passed');
  });

  it('compare names and dates after normalisation, and skip what the case lacks', async () => {
    const body = await pdf(VALID);
    const other = by(
      documentSteps(
        { body, declaredContentType: 'application/pdf' },
        { applicantName: 'Иван Петров', applicantBirthDate: '1974-08-13' },
        NOW,
      ).results,
    );
    expect(other['name-match']).toMatchObject({ outcome: 'failed', rule: 'name-match.mismatch' });
    expect(other['name-match'].evidence).toMatchObject({ caseName: 'IVAN PETROV' });
    expect(other['birth-date-match']).toMatchObject({
      outcome: 'failed',
      rule: 'birth-date-match.different',
    });
    const subset = by(
      documentSteps(
        { body, declaredContentType: 'application/pdf' },
        { applicantName: 'Anna Eriksson', applicantBirthDate: null },
        NOW,
      ).results,
    );
    expect(subset['name-match']).toMatchObject({ outcome: 'warning', rule: 'name-match.case-name-subset' });
    expect(subset['birth-date-match']).toMatchObject({
      outcome: 'skipped',
      rule: 'birth-date-match.no-case-date',
    });
  });

  it('finds MRZ lines even when a text layer spaces the characters, and not in ordinary text', () => {
    const spaced = VALID.map((l) => l.split('').join(' '));
    expect(findMrzLines(['Name: Anna', ...spaced])).toEqual({ lines: VALID, firstLine: 1 });
    expect(findMrzLines(['P<UTO short', 'nothing here'])).toBeNull();
  });

  it('warn about a duplicate with the other case as evidence', () => {
    const hit = { caseId: 'c-1', documentId: 'd-1' };
    expect(duplicateStep('ab', null, [hit], [])).toMatchObject({
      outcome: 'warning',
      rule: 'duplicate-document.same-file',
      evidence: { sameFile: [hit] },
    });
    expect(duplicateStep('ab', null, [], [])).toMatchObject({
      outcome: 'passed',
      rule: 'duplicate-document.none',
    });
  });

  it('reads literal strings with escapes in uncompressed content streams', () => {
    const content = 'BT /F1 10 Tf 72 700 Td (P<UTO\\(x\\)) Tj 0 -12 Td [(AB) -300 (CD)] TJ ET';
    const body = Buffer.from(
      `%PDF-1.4\n1 0 obj << /Length ${content.length} >>\nstream\n${content}\nendstream\nendobj\n`,
    );
    expect(pdfTextLines(body)).toEqual(['P<UTO(x)', 'AB CD']);
  });
});
