import type { ProviderCall, ProviderIdentity } from './provider-call';

/**
 * The external services behind the check steps, as interfaces: the check runner knows only these.
 * A real adapter implements one and is chosen by LENDING_PROVIDERS in check-provider.factories.ts;
 * nothing else changes when it arrives.
 */

/** Who the checks are about: the application's customer and the identity declared on the form. */
export interface Applicant {
  customerId: string | null;
  nationalId: string;
}

export interface IdentityVerification {
  /** `match`: the identity is confirmed; `mismatch`: the registry says otherwise; `not_found`. */
  outcome: 'match' | 'mismatch' | 'not_found';
  /** 0-100, the provider's confidence in the match. */
  confidence: number;
  verificationId: string;
}

export interface IdentityVerificationProvider extends ProviderIdentity {
  verify(applicant: Applicant, call: ProviderCall): Promise<IdentityVerification>;
}

export interface CreditReport {
  /** `none`: the bureau has no record of the person (a thin file). */
  record: 'found' | 'none';
  reportId: string;
  creditHistoryMonths: number;
  openAccounts: number;
  /** Monthly payments on existing debts, in minor units of the application's currency. */
  monthlyDebtPayments: number;
  /** The worst delinquency on record, in days past due (0: never late). */
  worstDelinquencyDays: number;
  bureauScore: number | null;
}

export interface CreditBureauProvider extends ProviderIdentity {
  report(applicant: Applicant, currency: string, call: ProviderCall): Promise<CreditReport>;
}

export interface AmlScreening {
  /** `hit`: on a sanctions list; `possible_match`: a similar name (e.g. a PEP) a person must clear. */
  outcome: 'clear' | 'possible_match' | 'hit';
  lists: string[];
  screeningId: string;
}

export interface AmlScreeningProvider extends ProviderIdentity {
  screen(applicant: Applicant, call: ProviderCall): Promise<AmlScreening>;
}

export interface ScoringInput {
  applicant: Applicant;
  amount: number;
  currency: string;
  termMonths: number;
  monthlyIncome: number;
  monthlyExpenses: number;
  /** The bureau's report, or null when it has no record or did not answer. */
  bureau: CreditReport | null;
}

export interface ScoreFactor {
  /** A stable code, e.g. CREDIT_HISTORY_LENGTH. */
  code: string;
  /** Points this factor added (positive) or took away (negative). */
  impact: number;
}

export interface Score {
  score: number;
  modelVersion: string;
  /** What influenced the score, largest effect first. */
  factors: ScoreFactor[];
}

export interface ScoringProvider extends ProviderIdentity {
  score(input: ScoringInput, call: ProviderCall): Promise<Score>;
}

export interface AffordabilityInput {
  amount: number;
  termMonths: number;
  monthlyIncome: number;
  monthlyExpenses: number;
  /** Existing debt payments per month (from the bureau; 0 without a report). */
  existingDebtPayments: number;
}

export interface Affordability {
  /** The estimated monthly installment of the requested loan at the reference rate. */
  installment: number;
  referenceAnnualRateBps: number;
  /** (expenses + existing debt payments + installment) / income, 4 decimals; null without income. */
  debtToIncome: number | null;
  /** Income left after expenses, existing debts and the installment (may be negative). */
  disposableIncome: number;
  outcome: 'affordable' | 'marginal' | 'unaffordable';
}

/** In-house arithmetic, not an external service: its results are not in the external-call log. */
export interface AffordabilityCalculator {
  readonly name: string;
  assess(input: AffordabilityInput): Affordability;
}

export const IDENTITY_VERIFICATION_PROVIDER = Symbol('IdentityVerificationProvider');
export const CREDIT_BUREAU_PROVIDER = Symbol('CreditBureauProvider');
export const AML_SCREENING_PROVIDER = Symbol('AmlScreeningProvider');
export const SCORING_PROVIDER = Symbol('ScoringProvider');
export const AFFORDABILITY_CALCULATOR = Symbol('AffordabilityCalculator');
