import { Inject, Injectable } from '@nestjs/common';
import type { OrganizationId } from '@platform/tenancy';
import { LendingConfig } from '../../config/lending.config';
import { ExternalCallLog } from '../external-calls/external-call-log';
import {
  AFFORDABILITY_CALCULATOR,
  AML_SCREENING_PROVIDER,
  CREDIT_BUREAU_PROVIDER,
  IDENTITY_VERIFICATION_PROVIDER,
  SCORING_PROVIDER,
  type AffordabilityCalculator,
  type AmlScreeningProvider,
  type Applicant,
  type CreditBureauProvider,
  type CreditReport,
  type IdentityVerificationProvider,
  type ScoringProvider,
} from '../providers/check-providers';
import {
  ProviderCall,
  ProviderTimeoutError,
  withTimeout,
  type ProviderIdentity,
} from '../providers/provider-call';
import type { StepResult } from './application-checks.repository';
import type { CheckStep } from './check-steps';
import {
  PROVIDER_ERROR,
  PROVIDER_TIMEOUT,
  affordabilityOutcome,
  amlOutcome,
  bureauOutcome,
  identityOutcome,
  scoreOutcome,
  type StepOutcome,
} from './step-outcomes';

/** What a run needs of the application, read once under the lock that claimed the run. */
export interface RunSnapshot {
  applicationId: string;
  applicant: Applicant;
  amount: number;
  currency: string;
  termMonths: number;
  monthlyIncome: number;
  monthlyExpenses: number;
}

/**
 * The one place the check providers are called (a live adapter changes nothing here): each step's
 * provider with its timeout, every call logged (ExternalCallLog redacts it), each answer read as the
 * step's outcome (step-outcomes.ts). Holds no transaction: the runner writes the results.
 */
@Injectable()
export class StepExecutor {
  constructor(
    private readonly log: ExternalCallLog,
    private readonly cfg: LendingConfig,
    @Inject(IDENTITY_VERIFICATION_PROVIDER) private readonly identity: IdentityVerificationProvider,
    @Inject(CREDIT_BUREAU_PROVIDER) private readonly bureau: CreditBureauProvider,
    @Inject(AML_SCREENING_PROVIDER) private readonly aml: AmlScreeningProvider,
    @Inject(SCORING_PROVIDER) private readonly scoring: ScoringProvider,
    @Inject(AFFORDABILITY_CALCULATOR) private readonly affordability: AffordabilityCalculator,
  ) {}

  /** One step: its provider called (and logged), its answer read as the step's outcome. */
  async execute(
    organizationId: OrganizationId,
    s: RunSnapshot,
    step: CheckStep,
    attempt: number,
    bureau: CreditReport | null,
  ): Promise<StepResult> {
    const read = <T extends object>(answer: T, outcome: StepOutcome): StepResult => ({
      ...outcome,
      result: { ...(answer as Record<string, unknown>) },
    });
    switch (step) {
      case 'identity_verification':
        return this.call(
          organizationId,
          s,
          step,
          attempt,
          this.identity,
          (c) => this.identity.verify(s.applicant, c),
          (v) => read(v, identityOutcome(v)),
        );
      case 'credit_bureau':
        return this.call(
          organizationId,
          s,
          step,
          attempt,
          this.bureau,
          (c) => this.bureau.report(s.applicant, s.currency, c),
          (r) => read(r, bureauOutcome(r)),
        );
      case 'aml_screening':
        return this.call(
          organizationId,
          s,
          step,
          attempt,
          this.aml,
          (c) => this.aml.screen(s.applicant, c),
          (r) => read(r, amlOutcome(r)),
        );
      case 'scoring':
        return this.call(
          organizationId,
          s,
          step,
          attempt,
          this.scoring,
          (c) =>
            this.scoring.score(
              {
                applicant: s.applicant,
                amount: s.amount,
                currency: s.currency,
                termMonths: s.termMonths,
                monthlyIncome: s.monthlyIncome,
                monthlyExpenses: s.monthlyExpenses,
                bureau,
              },
              c,
            ),
          (r) => read(r, scoreOutcome(r)),
        );
      case 'affordability': {
        const a = this.affordability.assess({
          amount: s.amount,
          termMonths: s.termMonths,
          monthlyIncome: s.monthlyIncome,
          monthlyExpenses: s.monthlyExpenses,
          existingDebtPayments: bureau?.monthlyDebtPayments ?? 0,
        });
        return read(a, affordabilityOutcome(a));
      }
    }
  }

  /**
   * Calls a provider with the configured timeout and logs the call whatever happens; a timeout or a
   * failure makes the step `error` (RunCheck retries it).
   */
  private async call<T>(
    organizationId: OrganizationId,
    s: RunSnapshot,
    step: CheckStep,
    attempt: number,
    provider: ProviderIdentity,
    work: (call: ProviderCall) => Promise<T>,
    read: (answer: T) => StepResult,
  ): Promise<StepResult> {
    const call = new ProviderCall(attempt);
    const startedAt = new Date();
    const t0 = performance.now();
    let answer: { value: T } | null = null;
    let failure: Error | null = null;
    try {
      answer = { value: await withTimeout(work(call), this.cfg.LENDING_PROVIDER_TIMEOUT_MS) };
    } catch (e) {
      failure = e instanceof Error ? e : new Error(String(e));
    }
    const timedOut = failure instanceof ProviderTimeoutError;
    await this.log.record(organizationId, {
      applicationId: s.applicationId,
      customerId: s.applicant.customerId,
      checkStep: step,
      provider: provider.name,
      mode: provider.mode,
      call,
      status: answer ? 'ok' : timedOut ? 'timeout' : 'error',
      error: failure?.message ?? null,
      startedAt,
      durationMs: Math.round(performance.now() - t0),
    });
    if (answer) return read(answer.value);
    return {
      status: 'error',
      reasonCode: timedOut ? PROVIDER_TIMEOUT : PROVIDER_ERROR,
      result: { provider: provider.name, attempt, error: timedOut ? 'timeout' : 'provider_error' },
    };
  }

  /** The name of the provider that answers a step. */
  providerName(step: CheckStep): string {
    switch (step) {
      case 'identity_verification':
        return this.identity.name;
      case 'credit_bureau':
        return this.bureau.name;
      case 'aml_screening':
        return this.aml.name;
      case 'scoring':
        return this.scoring.name;
      case 'affordability':
        return this.affordability.name;
    }
  }
}
