import { createHash } from 'node:crypto';
import type {
  AmlScreening,
  AmlScreeningProvider,
  Applicant,
  CreditBureauProvider,
  CreditReport,
  IdentityVerification,
  IdentityVerificationProvider,
  Score,
  ScoreFactor,
  ScoringInput,
  ScoringProvider,
} from './check-providers';
import { ProviderTimeoutError, type ProviderCall } from './provider-call';
import { stubScenario } from './stub-magic';

/**
 * Stub providers: full, deterministic answers chosen by the magic inputs of stub-magic.ts; nothing
 * leaves the process, no money moves and no real check runs. Each records the request a real adapter
 * would send, credentials included (a fixed placeholder), so the external-call log and its redaction
 * are exercised exactly as they will be with live providers.
 */

/** The placeholder credential every stub "sends"; the log must never show it. */
export const STUB_CREDENTIAL = 'stub-credential-not-a-secret';

const ref = (kind: string, ...parts: (string | number | null)[]) =>
  `${kind}-${createHash('sha256').update(parts.join('|')).digest('hex').slice(0, 16)}`;

/** The stub's simulated timeout: on a step's first attempt only, so a retry answers. */
function timeoutOnFirstAttempt(call: ProviderCall, timesOut: boolean): void {
  if (timesOut && call.attempt === 1) throw new ProviderTimeoutError(null);
}

export class StubIdentityVerificationProvider implements IdentityVerificationProvider {
  readonly name = 'stub-identity';
  readonly mode = 'stub' as const;

  async verify(a: Applicant, call: ProviderCall): Promise<IdentityVerification> {
    call.sent('POST /v1/identity/verifications', {
      apiKey: STUB_CREDENTIAL,
      nationalId: a.nationalId,
      customerReference: a.customerId,
    });
    const scenario = stubScenario(a.nationalId);
    timeoutOnFirstAttempt(call, scenario === 'identity_timeout');
    const verificationId = ref('idv', a.nationalId, a.customerId);
    const answer: IdentityVerification =
      scenario === 'identity_mismatch'
        ? { outcome: 'mismatch', confidence: 12, verificationId }
        : scenario === 'identity_not_found'
          ? { outcome: 'not_found', confidence: 0, verificationId }
          : { outcome: 'match', confidence: 98, verificationId };
    call.received({
      verificationId,
      status: answer.outcome.toUpperCase(),
      confidence: answer.confidence,
      nationalId: a.nationalId,
    });
    return answer;
  }
}

export class StubCreditBureauProvider implements CreditBureauProvider {
  readonly name = 'stub-credit-bureau';
  readonly mode = 'stub' as const;

  async report(a: Applicant, currency: string, call: ProviderCall): Promise<CreditReport> {
    call.sent('POST /v2/credit-reports', {
      login: 'stub-lender',
      password: STUB_CREDENTIAL,
      subject: { nationalId: a.nationalId },
      currency,
      purpose: 'credit_application',
    });
    const scenario = stubScenario(a.nationalId);
    timeoutOnFirstAttempt(call, scenario === 'bureau_timeout');
    const reportId = ref('rpt', a.nationalId);
    const report: CreditReport =
      scenario === 'bureau_no_record'
        ? {
            record: 'none',
            reportId,
            creditHistoryMonths: 0,
            openAccounts: 0,
            monthlyDebtPayments: 0,
            worstDelinquencyDays: 0,
            bureauScore: null,
          }
        : scenario === 'bureau_adverse_history'
          ? {
              record: 'found',
              reportId,
              creditHistoryMonths: 38,
              openAccounts: 3,
              monthlyDebtPayments: 0,
              worstDelinquencyDays: 120,
              bureauScore: 480,
            }
          : {
              record: 'found',
              reportId,
              creditHistoryMonths: 60,
              openAccounts: 0,
              monthlyDebtPayments: 0,
              worstDelinquencyDays: 0,
              bureauScore: 735,
            };
    call.received({ ...report, subject: { nationalId: a.nationalId } });
    return report;
  }
}

export class StubAmlScreeningProvider implements AmlScreeningProvider {
  readonly name = 'stub-aml';
  readonly mode = 'stub' as const;

  async screen(a: Applicant, call: ProviderCall): Promise<AmlScreening> {
    call.sent('POST /screenings', {
      headers: { Authorization: `Bearer ${STUB_CREDENTIAL}` },
      subject: { nationalId: a.nationalId, customerReference: a.customerId },
      lists: ['sanctions', 'pep', 'adverse_media'],
    });
    const scenario = stubScenario(a.nationalId);
    timeoutOnFirstAttempt(call, scenario === 'aml_timeout');
    const screeningId = ref('aml', a.nationalId);
    const answer: AmlScreening =
      scenario === 'aml_hit'
        ? { outcome: 'hit', lists: ['sanctions'], screeningId }
        : scenario === 'aml_possible_match'
          ? { outcome: 'possible_match', lists: ['pep'], screeningId }
          : { outcome: 'clear', lists: [], screeningId };
    call.received({ screeningId, result: answer.outcome, matchedLists: answer.lists });
    return answer;
  }
}

export class StubScoringProvider implements ScoringProvider {
  readonly name = 'stub-scoring';
  readonly mode = 'stub' as const;

  async score(input: ScoringInput, call: ProviderCall): Promise<Score> {
    call.sent('POST /v1/score', {
      token: STUB_CREDENTIAL,
      applicant: { nationalId: input.applicant.nationalId },
      features: {
        amount: input.amount,
        currency: input.currency,
        termMonths: input.termMonths,
        monthlyIncome: input.monthlyIncome,
        monthlyExpenses: input.monthlyExpenses,
        bureauRecord: input.bureau?.record ?? 'unavailable',
        worstDelinquencyDays: input.bureau?.worstDelinquencyDays ?? null,
      },
    });
    const scenario = stubScenario(input.applicant.nationalId);
    timeoutOnFirstAttempt(call, scenario === 'scoring_timeout');
    const factors = stubFactors(scenario, input.bureau);
    const score: Score = {
      score: 600 + factors.reduce((sum, f) => sum + f.impact, 0),
      modelVersion: 'stub-1',
      factors: [...factors].sort((a, b) => Math.abs(b.impact) - Math.abs(a.impact)),
    };
    call.received(score);
    return score;
  }
}

/** The score is 600 plus the factors' impacts (documented per scenario). */
function stubFactors(scenario: string, bureau: CreditReport | null): ScoreFactor[] {
  if (scenario === 'score_low')
    return [
      { code: 'PAYMENT_DISCIPLINE', impact: -90 },
      { code: 'HIGH_CREDIT_UTILISATION', impact: -60 },
    ];
  if (scenario === 'score_medium')
    return [
      { code: 'CREDIT_HISTORY_LENGTH', impact: 30 },
      { code: 'RECENT_CREDIT_INQUIRIES', impact: -20 },
      { code: 'DEBT_TO_INCOME', impact: 30 },
    ];
  if (!bureau || bureau.record === 'none')
    return [
      { code: 'THIN_CREDIT_FILE', impact: -10 },
      { code: 'DEBT_TO_INCOME', impact: 20 },
    ];
  if (bureau.worstDelinquencyDays >= 90) return [{ code: 'PAYMENT_DISCIPLINE', impact: -80 }];
  return [
    { code: 'CREDIT_HISTORY_LENGTH', impact: 60 },
    { code: 'PAYMENT_DISCIPLINE', impact: 45 },
    { code: 'DEBT_TO_INCOME', impact: 15 },
  ];
}
