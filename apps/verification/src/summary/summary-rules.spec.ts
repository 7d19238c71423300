import type { CheckOutcome, CheckStepName } from '../checks/check-steps';
import {
  FLAG_RULES,
  SUMMARY_RULES_VERSION,
  authenticity,
  effectiveSteps,
  flagOfStep,
  identityMatch,
  recommend,
  reviewFlags,
  summarize,
  type StepRecord,
} from './summary-rules';

let seq = 0;
const T0 = Date.parse('2026-11-24T10:00:00Z');

function step(
  name: CheckStepName,
  outcome: CheckOutcome,
  rule: string,
  over: Partial<StepRecord> = {},
): StepRecord {
  seq += 1;
  const provider = name === 'provider-kyc' || name === 'provider-kyb';
  return {
    id: `step-${seq}`,
    documentId: provider ? null : 'doc-1',
    providerSessionId: provider ? 'session-1' : null,
    step: name,
    outcome,
    rule,
    evidence: { probe: `${name}-${seq}` },
    detail: null,
    createdAt: new Date(T0 + seq * 1000),
    ...over,
  };
}

/** A document whose every step passed, plus a clear KYC session. */
function allPassed(documentId = 'doc-1'): StepRecord[] {
  const d = { documentId };
  return [
    step('file-type', 'passed', 'file-type.magic-bytes', d),
    step('document-parse', 'passed', 'document-parse.pdf-text-mrz', d),
    step('mrz-check-digits', 'passed', 'ICAO9303.check-digits', d),
    step('document-expiry', 'passed', 'document-expiry.not-expired', d),
    step('name-match', 'passed', 'name-match.exact', d),
    step('birth-date-match', 'passed', 'birth-date-match.equal', d),
    step('duplicate-document', 'passed', 'duplicate-document.none', d),
    step('provider-kyc', 'passed', 'provider-kyc.clear'),
  ];
}

const replace = (steps: StepRecord[], s: StepRecord) => steps.map((x) => (x.step === s.step ? s : x));
const codes = (steps: StepRecord[]) => summarize(steps).flags.map((f) => f.code);

describe('summary rules', () => {
  it('approves when every step passed: identity match, authenticity passed, no flags', () => {
    const s = summarize(allPassed());
    expect(s).toMatchObject({
      recommendation: 'approve',
      flags: [],
      identityMatch: { status: 'match', name: { status: 'match' }, birthDate: { status: 'match' } },
      authenticity: { status: 'passed' },
      rulesVersion: SUMMARY_RULES_VERSION,
    });
    expect(s.authenticity.checks.map((c) => c.step)).toEqual([
      'file-type',
      'mrz-check-digits',
      'document-expiry',
    ]);
  });

  it.each([
    ['file-type', 'failed', 'file-type.declared-mismatch', 'FILE_TYPE_FAILED'],
    ['mrz-check-digits', 'failed', 'ICAO9303.check-digit.document-number', 'MRZ_CHECK_DIGIT_FAILED'],
    ['document-expiry', 'failed', 'document-expiry.expired', 'DOCUMENT_EXPIRED'],
    ['name-match', 'failed', 'name-match.mismatch', 'NAME_MISMATCH'],
    ['birth-date-match', 'failed', 'birth-date-match.different', 'BIRTH_DATE_MISMATCH'],
    ['provider-kyc', 'failed', 'provider-kyc.rejected', 'PROVIDER_REJECTED'],
    ['provider-kyb', 'failed', 'provider-kyb.rejected', 'PROVIDER_REJECTED'],
  ] as const)('declines on a %s %s step, citing its rule %s and the step', (name, outcome, rule, code) => {
    const bad = step(name, outcome, rule, { evidence: { cited: rule } });
    const steps = name === 'provider-kyb' ? [...allPassed(), bad] : replace(allPassed(), bad);
    const s = summarize(steps);
    expect(s.recommendation).toBe('decline');
    const flag = s.flags.find((f) => f.code === code);
    expect(flag).toEqual({ code, severity: 'critical', rule, evidence: { cited: rule }, stepId: bad.id });
  });

  it.each([
    ['duplicate-document', 'warning', 'duplicate-document.same-file', 'DUPLICATE_DOCUMENT'],
    ['duplicate-document', 'warning', 'duplicate-document.same-document-number', 'DUPLICATE_DOCUMENT'],
    ['name-match', 'warning', 'name-match.case-name-subset', 'NAME_PARTIAL_MATCH'],
    ['provider-kyc', 'warning', 'provider-kyc.consider', 'PROVIDER_CONSIDER'],
    ['document-parse', 'skipped', 'document-parse.image-no-ocr', 'DOCUMENT_NOT_PARSED'],
    ['document-parse', 'error', 'document-parse.pdf-unreadable', 'DOCUMENT_NOT_PARSED'],
    ['provider-kyc', 'error', 'provider-kyc.provider-error', 'CHECK_STEP_ERROR'],
    ['file-type', 'error', 'file-type.unreadable', 'CHECK_STEP_ERROR'],
  ] as const)('sends a %s %s step (%s) to review with a %s warning', (name, outcome, rule, code) => {
    const odd = step(name, outcome, rule);
    const s = summarize(replace(allPassed(), odd));
    expect(s.recommendation).toBe('review');
    expect(s.flags).toContainEqual({
      code,
      severity: 'warning',
      rule,
      evidence: odd.evidence,
      stepId: odd.id,
    });
    expect(s.flags.every((f) => f.severity !== 'critical')).toBe(true);
  });

  it('a critical flag wins over warnings, and critical flags come first', () => {
    const steps = replace(
      replace(allPassed(), step('duplicate-document', 'warning', 'duplicate-document.same-file')),
      step('document-expiry', 'failed', 'document-expiry.expired'),
    );
    const s = summarize(steps);
    expect(s.recommendation).toBe('decline');
    expect(s.flags.map((f) => [f.code, f.severity])).toEqual([
      ['DOCUMENT_EXPIRED', 'critical'],
      ['DUPLICATE_DOCUMENT', 'warning'],
    ]);
  });

  it('no steps at all: review, flagged NO_USABLE_DOCUMENT by its own rule', () => {
    const s = summarize([]);
    expect(s.recommendation).toBe('review');
    expect(s.flags).toContainEqual({
      code: 'NO_USABLE_DOCUMENT',
      severity: 'warning',
      rule: 'summary.no-usable-document',
      evidence: { checkedDocuments: [], fileTypePassed: 0 },
      stepId: null,
    });
    expect(s.identityMatch.status).toBe('unknown');
    expect(s.authenticity.status).toBe('inconclusive');
    // Identity is not flagged separately: the missing document says why.
    expect(s.flags.map((f) => f.code)).not.toContain('IDENTITY_NOT_COMPARED');
  });

  it('a provider session alone (no document) is not enough: review with NO_USABLE_DOCUMENT', () => {
    const s = summarize([step('provider-kyb', 'passed', 'provider-kyb.clear')]);
    expect(s.recommendation).toBe('review');
    expect(s.flags.map((f) => f.code)).toEqual(['NO_USABLE_DOCUMENT']);
  });

  it('documents still being checked: review with CHECKS_PENDING naming them', () => {
    const s = summarize(allPassed(), [
      { id: 'doc-1', status: 'Accepted' },
      { id: 'doc-2', status: 'Processing' },
      { id: 'doc-3', status: 'AwaitingUpload' },
    ]);
    expect(s.recommendation).toBe('review');
    expect(s.flags).toEqual([
      {
        code: 'CHECKS_PENDING',
        severity: 'warning',
        rule: 'summary.checks-pending',
        evidence: { documents: [{ id: 'doc-2', status: 'Processing' }] },
        stepId: null,
      },
    ]);
  });

  it('nothing to compare with (no name, no birth date on the case): review with IDENTITY_NOT_COMPARED', () => {
    let steps = replace(allPassed(), step('name-match', 'skipped', 'name-match.no-case-name'));
    steps = replace(steps, step('birth-date-match', 'skipped', 'birth-date-match.no-case-date'));
    const s = summarize(steps);
    expect(s.identityMatch.status).toBe('unknown');
    expect(s.recommendation).toBe('review');
    expect(s.flags.map((f) => [f.code, f.severity, f.rule])).toEqual([
      ['IDENTITY_NOT_COMPARED', 'warning', 'summary.identity-not-compared'],
      ['NAME_NOT_COMPARED', 'info', 'name-match.no-case-name'],
      ['BIRTH_DATE_NOT_COMPARED', 'info', 'birth-date-match.no-case-date'],
    ]);
  });

  it('info flags alone do not stop approval (only the birth date was not compared)', () => {
    const skipped = step('birth-date-match', 'skipped', 'birth-date-match.no-case-date');
    const s = summarize(replace(allPassed(), skipped));
    expect(s.recommendation).toBe('approve');
    expect(s.identityMatch.status).toBe('partial');
    expect(s.flags).toEqual([
      {
        code: 'BIRTH_DATE_NOT_COMPARED',
        severity: 'info',
        rule: skipped.rule,
        evidence: skipped.evidence,
        stepId: skipped.id,
      },
    ]);
  });

  it('no provider session: an info flag, still approve', () => {
    const s = summarize(allPassed().filter((x) => x.step !== 'provider-kyc'));
    expect(s.recommendation).toBe('approve');
    expect(s.flags).toEqual([
      {
        code: 'PROVIDER_NOT_RUN',
        severity: 'info',
        rule: 'summary.provider-not-run',
        evidence: { providerSteps: 0 },
        stepId: null,
      },
    ]);
  });

  it('a parse not run because the file type failed raises only the file type flag', () => {
    const steps = [
      step('file-type', 'failed', 'file-type.unrecognised'),
      step('document-parse', 'skipped', 'document-parse.not-run'),
      step('provider-kyc', 'passed', 'provider-kyc.clear'),
    ];
    expect(codes(steps)).toEqual(['FILE_TYPE_FAILED', 'NO_USABLE_DOCUMENT']);
    expect(summarize(steps).recommendation).toBe('decline');
  });

  it('only the latest provider answer of a kind counts (a retried session)', () => {
    const old = step('provider-kyc', 'failed', 'provider-kyc.rejected', { providerSessionId: 's-1' });
    const newer = step('provider-kyc', 'passed', 'provider-kyc.clear', { providerSessionId: 's-2' });
    const docs = allPassed().filter((x) => x.step !== 'provider-kyc');
    expect(effectiveSteps([...docs, old, newer]).filter((x) => x.step === 'provider-kyc')).toEqual([newer]);
    expect(summarize([...docs, old, newer]).recommendation).toBe('approve');
    // ...and in the other order the rejection is the latest.
    const later = step('provider-kyc', 'failed', 'provider-kyc.rejected', { providerSessionId: 's-3' });
    expect(summarize([...docs, newer, later]).recommendation).toBe('decline');
  });

  it('every flag cites a rule, and a step flag the step it rests on', () => {
    const steps = [
      ...replace(allPassed('doc-1'), step('name-match', 'warning', 'name-match.document-name-subset')),
      step('file-type', 'failed', 'file-type.declared-mismatch', { documentId: 'doc-2' }),
      step('provider-kyb', 'warning', 'provider-kyb.consider'),
    ];
    const ids = new Set(steps.map((s) => s.id));
    const flags = summarize(steps, [{ id: 'doc-3', status: 'Uploaded' }]).flags;
    expect(flags.length).toBeGreaterThanOrEqual(4);
    for (const f of flags) {
      expect(f.rule).toMatch(/\S/);
      expect(f.code in FLAG_RULES).toBe(true);
      expect(f.severity).toBe(FLAG_RULES[f.code as keyof typeof FLAG_RULES].severity);
      if (f.stepId === null) expect(f.rule).toBe(FLAG_RULES[f.code as keyof typeof FLAG_RULES].rule);
      else {
        expect(ids.has(f.stepId)).toBe(true);
        const s = steps.find((x) => x.id === f.stepId) as StepRecord;
        expect(f.rule).toBe(s.rule);
        expect(f.evidence).toBe(s.evidence);
      }
    }
  });

  describe('identity match', () => {
    it('mismatch when either comparison differs, citing the deciding step', () => {
      const diff = step('birth-date-match', 'failed', 'birth-date-match.different');
      const m = identityMatch(replace(allPassed(), diff));
      expect(m.status).toBe('mismatch');
      expect(m.birthDate).toEqual({
        status: 'mismatch',
        rule: 'birth-date-match.different',
        stepId: diff.id,
        evidence: diff.evidence,
      });
      expect(m.name.status).toBe('match');
    });

    it('partial on a partial name', () => {
      expect(
        identityMatch(replace(allPassed(), step('name-match', 'warning', 'name-match.case-name-subset')))
          .status,
      ).toBe('partial');
    });

    it('the worst result over several documents decides', () => {
      const steps = [
        ...allPassed('doc-1'),
        step('name-match', 'failed', 'name-match.mismatch', { documentId: 'doc-2' }),
      ];
      expect(identityMatch(steps).name.status).toBe('mismatch');
    });

    it('unknown with a rule naming the missing step when nothing was compared', () => {
      const m = identityMatch([]);
      expect(m).toEqual({
        status: 'unknown',
        name: { status: 'unknown', rule: 'summary.identity.name-match-absent', stepId: null, evidence: {} },
        birthDate: {
          status: 'unknown',
          rule: 'summary.identity.birth-date-match-absent',
          stepId: null,
          evidence: {},
        },
      });
    });
  });

  describe('authenticity', () => {
    it('failed when any validity step failed', () => {
      expect(
        authenticity(replace(allPassed(), step('mrz-check-digits', 'failed', 'ICAO9303.composite'))).status,
      ).toBe('failed');
    });

    it('inconclusive when no document passed all three (no MRZ read)', () => {
      const steps = [
        step('file-type', 'passed', 'file-type.magic-bytes'),
        step('document-parse', 'skipped', 'document-parse.image-no-ocr'),
        step('mrz-check-digits', 'skipped', 'ICAO9303.check-digits'),
        step('document-expiry', 'skipped', 'document-expiry.no-date'),
      ];
      expect(authenticity(steps).status).toBe('inconclusive');
    });

    it('the three passes must belong to one document', () => {
      const steps = [
        step('file-type', 'passed', 'file-type.magic-bytes', { documentId: 'a' }),
        step('mrz-check-digits', 'passed', 'ICAO9303.check-digits', { documentId: 'b' }),
        step('document-expiry', 'passed', 'document-expiry.not-expired', { documentId: 'b' }),
      ];
      expect(authenticity(steps).status).toBe('inconclusive');
    });
  });

  it('recommend: decline > review > approve', () => {
    const f = (severity: 'info' | 'warning' | 'critical') => ({
      code: 'X',
      severity,
      rule: 'r',
      evidence: {},
      stepId: null,
    });
    expect(recommend([])).toBe('approve');
    expect(recommend([f('info')])).toBe('approve');
    expect(recommend([f('info'), f('warning')])).toBe('review');
    expect(recommend([f('warning'), f('critical')])).toBe('decline');
    expect(reviewFlags([f('info'), f('warning'), f('critical')]).map((x) => x.severity)).toEqual([
      'warning',
      'critical',
    ]);
  });

  it('flagOfStep ignores passed steps and skips that need no flag', () => {
    expect(flagOfStep(step('name-match', 'passed', 'name-match.exact'))).toBeNull();
    expect(flagOfStep(step('mrz-check-digits', 'skipped', 'ICAO9303.check-digits'))).toBeNull();
    expect(flagOfStep(step('name-match', 'skipped', 'name-match.no-document-name'))).toBeNull();
  });

  it('is deterministic: the same steps give the same summary', () => {
    const steps = replace(allPassed(), step('duplicate-document', 'warning', 'duplicate-document.same-file'));
    expect(summarize(steps)).toEqual(summarize([...steps]));
  });
});
