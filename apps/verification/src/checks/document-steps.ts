import {
  matchBirthDate,
  matchName,
  parseMrz,
  sniffFileType,
  type MrzFields,
  type MrzFormat,
  type MrzResult,
  type MrzRuleId,
  type MrzRuleResult,
} from '@platform/verification-checks';
import type { StepResult } from './check-steps';
import { imageTexts } from './image-text';
import { pdfTextLines } from './pdf-text';

/**
 * The document steps as pure functions (docs/verification/checks.md, "Steps"): each returns a stored
 * result with its outcome, a stable rule id and the evidence. Nothing here reads the database; the
 * orchestrator supplies the duplicates it found.
 */

export interface FoundMrz {
  /** Where the lines were read: `pdf-text`, `png:tEXt:<keyword>`, `jpeg:COM`, ... */
  source: string;
  lines: string[];
  result: MrzResult;
}

export interface CaseFacts {
  applicantName: string | null;
  applicantBirthDate: string | null;
}

export interface DocumentFacts {
  body: Buffer;
  declaredContentType: string;
}

/** What the first steps found: the later ones and the duplicate lookup use it. */
export interface ParsedDocument {
  results: StepResult[];
  detectedType: string | null;
  fileTypeOk: boolean;
  mrz: FoundMrz | null;
}

const step = (
  name: StepResult['step'],
  outcome: StepResult['outcome'],
  rule: string,
  evidence: Record<string, unknown>,
  detail: string | null = null,
): StepResult => ({ step: name, outcome, rule, evidence, detail });

const ALIASES: Record<string, string> = { 'image/jpg': 'image/jpeg', 'image/pjpeg': 'image/jpeg' };

/** `image/JPG; name=x` -> `image/jpeg`. */
export function normalizeContentType(declared: string): string {
  const base = declared.split(';')[0].trim().toLowerCase();
  return ALIASES[base] ?? base;
}

/** file-type: the magic bytes decide; the declared type (and any file name) is only compared with them. */
export function fileTypeStep(doc: DocumentFacts): StepResult & { detectedType: string | null } {
  const detected = sniffFileType(doc.body);
  const declared = normalizeContentType(doc.declaredContentType);
  const evidence = {
    declaredContentType: doc.declaredContentType,
    detectedType: detected,
    leadingBytes: doc.body.subarray(0, 8).toString('hex'),
    sizeBytes: doc.body.length,
  };
  if (!detected)
    return {
      ...step(
        'file-type',
        'failed',
        'file-type.unrecognised',
        evidence,
        'The file is none of the accepted formats (PDF, JPEG, PNG, HEIC/HEIF, WebP) by its content.',
      ),
      detectedType: null,
    };
  if (detected !== declared)
    return {
      ...step(
        'file-type',
        'failed',
        'file-type.declared-mismatch',
        evidence,
        `Declared as ${declared}, but the content is ${detected}.`,
      ),
      detectedType: detected,
    };
  return { ...step('file-type', 'passed', 'file-type.magic-bytes', evidence), detectedType: detected };
}

const MRZ_LINE = /^[A-Z0-9<]+$/;
const SHAPES: Record<MrzFormat, { count: number; width: number }> = {
  TD3: { count: 2, width: 44 },
  TD2: { count: 2, width: 36 },
  TD1: { count: 3, width: 30 },
};

/**
 * The first run of consecutive lines with an MRZ's shape (2x44, 2x36 or 3x30; spaces inside a line
 * are dropped, as text layers often space monospaced characters), and its index among the lines.
 */
export function findMrzLines(lines: readonly string[]): { lines: string[]; firstLine: number } | null {
  const compact = lines.map((l) => l.replace(/\s+/g, ''));
  for (let i = 0; i < compact.length; i++) {
    for (const { count, width } of Object.values(SHAPES)) {
      const run = compact.slice(i, i + count);
      if (run.length === count && run.every((l) => l.length === width && MRZ_LINE.test(l)))
        return { lines: run, firstLine: i };
    }
  }
  return null;
}

const mrzSummary = (f: MrzFields | null) =>
  f && {
    documentCode: f.documentCode,
    issuingState: f.issuingState,
    documentNumber: f.documentNumber,
    primaryIdentifier: f.primaryIdentifier,
    secondaryIdentifier: f.secondaryIdentifier,
    nationality: f.nationality,
    birthDate: f.birthDate,
    expiryDate: f.expiryDate,
  };

/** document-parse: an MRZ from the PDF's text layer, or from an image's text metadata (no OCR). */
export function parseStep(
  doc: DocumentFacts,
  detectedType: string | null,
  fileTypeOk: boolean,
  now: Date,
): { result: StepResult; mrz: FoundMrz | null } {
  if (!fileTypeOk)
    return {
      result: step('document-parse', 'skipped', 'document-parse.not-run', {}, 'The file type check failed.'),
      mrz: null,
    };
  const found = (source: string, lines: string[]): FoundMrz => ({
    source,
    lines,
    result: parseMrz(lines, { referenceDate: now }),
  });
  if (detectedType === 'application/pdf') {
    let text: string[];
    try {
      text = pdfTextLines(doc.body);
    } catch (e) {
      return {
        result: step(
          'document-parse',
          'error',
          'document-parse.pdf-unreadable',
          { detectedType },
          `The PDF could not be read: ${(e as Error).message}.`,
        ),
        mrz: null,
      };
    }
    const hit = findMrzLines(text);
    if (!hit)
      return {
        result: step(
          'document-parse',
          'skipped',
          'document-parse.pdf-no-mrz',
          { detectedType, textLines: text.length },
          "The PDF's text holds no machine readable zone. Scanned pages are images and are not read: this build has no OCR.",
        ),
        mrz: null,
      };
    const mrz = found('pdf-text', hit.lines);
    return {
      result: step('document-parse', 'passed', 'document-parse.pdf-text-mrz', {
        source: 'pdf-text',
        textLine: hit.firstLine + 1,
        format: mrz.result.format,
        lines: hit.lines,
        mrz: mrzSummary(mrz.result.fields),
      }),
      mrz,
    };
  }
  for (const t of imageTexts(doc.body)) {
    const hit = findMrzLines(t.text.split(/\r?\n/));
    if (!hit) continue;
    const mrz = found(t.source, hit.lines);
    return {
      result: step('document-parse', 'passed', 'document-parse.image-metadata-mrz', {
        source: t.source,
        format: mrz.result.format,
        lines: hit.lines,
        mrz: mrzSummary(mrz.result.fields),
      }),
      mrz,
    };
  }
  return {
    result: step(
      'document-parse',
      'skipped',
      'document-parse.image-no-ocr',
      { detectedType },
      'Images are not read: this build has no OCR, and the image carries no MRZ as text metadata. A person should look at it (manual review).',
    ),
    mrz: null,
  };
}

/** Stable ids of the ICAO 9303 rules of libs/verification-checks. */
export const ICAO_RULE_IDS: Record<MrzRuleId, string> = {
  MRZ_FORMAT: 'ICAO9303.format',
  MRZ_CHARSET: 'ICAO9303.charset',
  DOCUMENT_NUMBER_CHECK_DIGIT: 'ICAO9303.check-digit.document-number',
  BIRTH_DATE_CHECK_DIGIT: 'ICAO9303.check-digit.birth-date',
  EXPIRY_DATE_CHECK_DIGIT: 'ICAO9303.check-digit.expiry-date',
  OPTIONAL_DATA_CHECK_DIGIT: 'ICAO9303.check-digit.optional-data',
  COMPOSITE_CHECK_DIGIT: 'ICAO9303.check-digit.composite',
  BIRTH_DATE_VALID: 'ICAO9303.date.birth',
  EXPIRY_DATE_VALID: 'ICAO9303.date.expiry',
};

/** Where each check digit stands: MRZ line and character position, both from 1 (Doc 9303 Parts 4-6). */
const DIGIT_POSITIONS: Record<MrzFormat, Partial<Record<MrzRuleId, [number, number]>>> = {
  TD3: {
    DOCUMENT_NUMBER_CHECK_DIGIT: [2, 10],
    BIRTH_DATE_CHECK_DIGIT: [2, 20],
    EXPIRY_DATE_CHECK_DIGIT: [2, 28],
    OPTIONAL_DATA_CHECK_DIGIT: [2, 43],
    COMPOSITE_CHECK_DIGIT: [2, 44],
  },
  TD2: {
    DOCUMENT_NUMBER_CHECK_DIGIT: [2, 10],
    BIRTH_DATE_CHECK_DIGIT: [2, 20],
    EXPIRY_DATE_CHECK_DIGIT: [2, 28],
    COMPOSITE_CHECK_DIGIT: [2, 36],
  },
  TD1: {
    DOCUMENT_NUMBER_CHECK_DIGIT: [1, 15],
    BIRTH_DATE_CHECK_DIGIT: [2, 7],
    EXPIRY_DATE_CHECK_DIGIT: [2, 15],
    COMPOSITE_CHECK_DIGIT: [2, 30],
  },
};

function ruleEvidence(format: MrzFormat | null, lines: string[], r: MrzRuleResult) {
  let at = format ? DIGIT_POSITIONS[format][r.rule] : undefined;
  // A TD1 number longer than 9 characters moves its check digit into the optional data (Part 5).
  if (at && format === 'TD1' && r.rule === 'DOCUMENT_NUMBER_CHECK_DIGIT' && lines[0]?.[14] === '<')
    at = undefined;
  return {
    rule: ICAO_RULE_IDS[r.rule],
    passed: r.passed,
    field: r.field,
    ...(r.expected !== undefined ? { expected: r.expected } : {}),
    ...(r.found !== undefined ? { found: r.found } : {}),
    ...(at ? { line: at[0], position: at[1], mrzLine: lines[at[0] - 1] } : {}),
    ...(r.detail ? { detail: r.detail } : {}),
  };
}

/** mrz-check-digits: every ICAO 9303 check digit and date of the MRZ; the first failure names the rule. */
export function mrzStep(mrz: FoundMrz | null): StepResult {
  if (!mrz)
    return step(
      'mrz-check-digits',
      'skipped',
      'ICAO9303.check-digits',
      {},
      'No machine readable zone was read.',
    );
  const rules = mrz.result.rules.map((r) => ruleEvidence(mrz.result.format, mrz.lines, r));
  const failed = rules.filter((r) => !r.passed);
  const evidence = { format: mrz.result.format, source: mrz.source, rules };
  if (!failed.length) return step('mrz-check-digits', 'passed', 'ICAO9303.check-digits', evidence);
  const where = (r: (typeof failed)[number]) =>
    'line' in r ? ` (line ${r.line}, position ${r.position}: expected ${r.expected}, found ${r.found})` : '';
  return step(
    'mrz-check-digits',
    'failed',
    failed[0].rule,
    evidence,
    failed.map((r) => `${r.rule}${where(r)}`).join('; '),
  );
}

/** document-expiry: the MRZ's expiry date against the day of the check (UTC); expired = failed. */
export function expiryStep(mrz: FoundMrz | null, now: Date): StepResult {
  const expiryDate = mrz?.result.fields?.expiryDate ?? null;
  const checkedOn = now.toISOString().slice(0, 10);
  if (!expiryDate)
    return step(
      'document-expiry',
      'skipped',
      'document-expiry.no-date',
      { checkedOn },
      'No readable expiry date.',
    );
  return expiryDate < checkedOn
    ? step(
        'document-expiry',
        'failed',
        'document-expiry.expired',
        { expiryDate, checkedOn },
        `The document expired on ${expiryDate}.`,
      )
    : step('document-expiry', 'passed', 'document-expiry.not-expired', { expiryDate, checkedOn });
}

/** name-match: the MRZ's name against the case's `applicantName`, both normalised to the MRZ alphabet. */
export function nameStep(mrz: FoundMrz | null, c: CaseFacts): StepResult {
  const f = mrz?.result.fields;
  if (!f)
    return step(
      'name-match',
      'skipped',
      'name-match.no-document-name',
      {},
      'No name was read from the document.',
    );
  if (!c.applicantName)
    return step(
      'name-match',
      'skipped',
      'name-match.no-case-name',
      {},
      'The case has no applicantName to compare.',
    );
  const m = matchName(`${f.secondaryIdentifier} ${f.primaryIdentifier}`, c.applicantName);
  const evidence = { documentName: m.documentName, caseName: m.caseName, reason: m.reason };
  if (m.matched)
    return step(
      'name-match',
      'passed',
      m.reason === 'EXACT' ? 'name-match.exact' : 'name-match.tokens-reordered',
      evidence,
    );
  if (m.reason === 'CASE_NAME_SUBSET' || m.reason === 'DOCUMENT_NAME_SUBSET')
    return step(
      'name-match',
      'warning',
      m.reason === 'CASE_NAME_SUBSET' ? 'name-match.case-name-subset' : 'name-match.document-name-subset',
      evidence,
      'One name lacks a part of the other (e.g. a second given name or a patronymic).',
    );
  return step('name-match', 'failed', 'name-match.mismatch', evidence, 'The names differ.');
}

/** birth-date-match: the MRZ's birth date against the case's `applicantBirthDate`. */
export function birthDateStep(mrz: FoundMrz | null, c: CaseFacts): StepResult {
  if (!mrz?.result.fields)
    return step(
      'birth-date-match',
      'skipped',
      'birth-date-match.no-document-date',
      {},
      'No birth date was read.',
    );
  if (!c.applicantBirthDate)
    return step(
      'birth-date-match',
      'skipped',
      'birth-date-match.no-case-date',
      {},
      'The case has no applicantBirthDate to compare.',
    );
  const m = matchBirthDate(mrz.result.fields.birthDate, c.applicantBirthDate);
  const evidence = { documentDate: m.documentDate, caseDate: m.caseDate, reason: m.reason };
  if (m.matched) return step('birth-date-match', 'passed', 'birth-date-match.equal', evidence);
  if (m.reason === 'DOCUMENT_DATE_MISSING')
    return step(
      'birth-date-match',
      'skipped',
      'birth-date-match.no-document-date',
      evidence,
      'No birth date was read.',
    );
  if (m.reason === 'CASE_DATE_INVALID')
    return step(
      'birth-date-match',
      'skipped',
      'birth-date-match.no-case-date',
      evidence,
      "The case's date is invalid.",
    );
  return step(
    'birth-date-match',
    'failed',
    'birth-date-match.different',
    evidence,
    'The birth dates differ.',
  );
}

export interface DuplicateHit {
  caseId: string;
  documentId: string;
}

/** duplicate-document: the same file or document number in another case of the same organization. */
export function duplicateStep(
  sha256: string,
  mrz: FoundMrz | null,
  sameFile: readonly DuplicateHit[],
  sameNumber: readonly DuplicateHit[],
): StepResult {
  const f = mrz?.result.fields;
  const evidence = {
    sha256,
    documentNumber: f?.documentNumber ?? null,
    issuingState: f?.issuingState ?? null,
    sameFile,
    sameDocumentNumber: sameNumber,
  };
  const cases = (hits: readonly DuplicateHit[]) => [...new Set(hits.map((h) => h.caseId))].join(', ');
  if (sameFile.length)
    return step(
      'duplicate-document',
      'warning',
      'duplicate-document.same-file',
      evidence,
      `The same file was uploaded to case ${cases(sameFile)}.`,
    );
  if (sameNumber.length)
    return step(
      'duplicate-document',
      'warning',
      'duplicate-document.same-document-number',
      evidence,
      `A document with this number is in case ${cases(sameNumber)}.`,
    );
  return step('duplicate-document', 'passed', 'duplicate-document.none', evidence);
}

/** The steps up to the MRZ's own checks; the caller adds the duplicate step. */
export function documentSteps(doc: DocumentFacts, c: CaseFacts, now: Date): ParsedDocument {
  const type = fileTypeStep(doc);
  const { detectedType, ...typeResult } = type;
  const fileTypeOk = type.outcome === 'passed';
  const parsed = parseStep(doc, detectedType, fileTypeOk, now);
  return {
    detectedType,
    fileTypeOk,
    mrz: parsed.mrz,
    results: [
      typeResult,
      parsed.result,
      mrzStep(parsed.mrz),
      expiryStep(parsed.mrz, now),
      nameStep(parsed.mrz, c),
      birthDateStep(parsed.mrz, c),
    ],
  };
}

/**
 * Accepted or Rejected, and why: only the document's own validity rejects it (its type, its MRZ check
 * digits, its expiry). Comparisons with the case (name, birth date, duplicates) are kept as the steps'
 * outcomes for the summary and manual review to weigh; they do not make the document itself invalid.
 */
export function documentVerdict(results: readonly StepResult[]): {
  accepted: boolean;
  reason: string | null;
} {
  const failed = (s: StepResult['step']) => results.find((r) => r.step === s && r.outcome === 'failed');
  const type = failed('file-type');
  if (type)
    return {
      accepted: false,
      reason: type.rule === 'file-type.unrecognised' ? 'FILE_TYPE_UNRECOGNISED' : 'FILE_TYPE_MISMATCH',
    };
  if (failed('mrz-check-digits')) return { accepted: false, reason: 'MRZ_CHECK_FAILED' };
  if (failed('document-expiry')) return { accepted: false, reason: 'DOCUMENT_EXPIRED' };
  return { accepted: true, reason: null };
}
