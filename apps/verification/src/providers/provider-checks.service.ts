import { Inject, Injectable } from '@nestjs/common';
import type { ListValue } from '@platform/envelope';
import { Transactions } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { CaseMoves } from '../cases/case-moves.service';
import { CASE_TRANSITIONS, isCaseStatus } from '../cases/case-statuses';
import { CasesError, casesError } from '../cases/cases.errors';
import { CasesRepository } from '../cases/cases.repository';
import type { StepResult } from '../checks/check-steps';
import { CheckStepsRepository } from '../checks/check-steps.repository';
import { ChecksError, checksError } from '../checks/checks.errors';
import type { StartSessionRequest } from './dto/start-session.request';
import {
  IDENTITY_PROVIDER,
  type IdentityProvider,
  type ProviderSessionKind,
  type ProviderSessionResult,
} from './identity-provider';
import type { ProviderSession } from './provider-session.entity';
import { ProviderSessionsRepository } from './provider-sessions.repository';

export interface ProviderSessionView {
  id: string;
  caseId: string;
  kind: string;
  provider: string;
  status: string;
  result: string | null;
  breakdown: Record<string, unknown>;
  createdAt: string;
  completedAt: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const view = (s: ProviderSession): ProviderSessionView => ({
  id: s.id,
  caseId: s.caseId,
  kind: s.kind,
  provider: s.provider,
  status: s.status,
  result: s.result,
  breakdown: s.breakdown,
  createdAt: s.createdAt.toISOString(),
  completedAt: s.completedAt?.toISOString() ?? null,
});

const OUTCOME = { clear: 'passed', consider: 'warning', rejected: 'failed' } as const;

/** The provider-kyc / provider-kyb step a session's answer stores. */
function sessionStep(
  kind: ProviderSessionKind,
  sessionId: string,
  provider: string,
  answer: ProviderSessionResult,
): StepResult | null {
  const step = kind === 'KYC' ? 'provider-kyc' : 'provider-kyb';
  const base = { sessionId, provider, kind };
  if (answer.status === 'Started') return null;
  if (answer.status === 'Failed')
    return {
      step,
      outcome: 'error',
      rule: `${step}.provider-error`,
      evidence: { ...base, retryable: answer.retryable },
      detail: answer.error,
    };
  return {
    step,
    outcome: OUTCOME[answer.result],
    rule: `${step}.${answer.result}`,
    evidence: { ...base, result: answer.result, breakdown: answer.breakdown },
    detail: null,
  };
}

/**
 * Provider checks (docs/verification/checks.md, "Provider checks"): a session is recorded as Started
 * before the provider is called (outside any transaction: a slow provider holds no lock), then
 * completed or failed with its answer and the provider step it stores.
 */
@Injectable()
export class ProviderChecksService {
  constructor(
    private readonly transactions: Transactions,
    private readonly moves: CaseMoves,
    private readonly cases: CasesRepository,
    private readonly sessions: ProviderSessionsRepository,
    private readonly steps: CheckStepsRepository,
    @Inject(IDENTITY_PROVIDER) private readonly provider: IdentityProvider,
  ) {}

  async start(
    organizationId: OrganizationId,
    caseId: string,
    dto: StartSessionRequest,
  ): Promise<ProviderSessionView> {
    const started = await this.transactions.run(async (tx) => {
      const c = await this.moves.lock(tx, organizationId, caseId);
      if (isCaseStatus(c.status) && CASE_TRANSITIONS[c.status].length === 0)
        throw checksError(ChecksError.CASE_FINAL, { caseId, status: c.status });
      const kind: ProviderSessionKind = dto.kind ?? (c.applicantType === 'Business' ? 'KYB' : 'KYC');
      const id = await this.sessions.create(
        organizationId,
        {
          caseId,
          kind,
          provider: this.provider.name,
          status: 'Started',
          result: null,
          breakdown: {},
          createdAt: new Date(),
          completedAt: null,
        },
        tx,
      );
      return { c, id, kind };
    });
    let answer: ProviderSessionResult;
    try {
      answer = await this.provider.startSession({
        sessionId: started.id,
        kind: started.kind,
        applicantName: started.c.applicantName,
        applicantBirthDate: started.c.applicantBirthDate,
        applicantCountryCode: started.c.applicantCountryCode,
        externalReferenceId: started.c.externalReferenceId,
      });
    } catch (e) {
      answer = { status: 'Failed', retryable: true, error: (e as Error).message };
    }
    const session = await this.transactions.run(async (tx) => {
      if (answer.status !== 'Started') {
        await this.sessions.finish(
          organizationId,
          started.id,
          {
            status: answer.status,
            result: answer.status === 'Completed' ? answer.result : null,
            breakdown:
              answer.status === 'Completed'
                ? answer.breakdown
                : { error: answer.error, retryable: answer.retryable },
            completedAt: new Date(),
          },
          tx,
        );
      }
      const step = sessionStep(started.kind, started.id, this.provider.name, answer);
      if (step) await this.steps.recordForSession(organizationId, caseId, started.id, step, tx);
      return this.sessions.get(organizationId, started.id, tx);
    });
    if (answer.status === 'Failed')
      throw checksError(
        ChecksError.PROVIDER_UNAVAILABLE,
        { sessionId: started.id },
        { sessionId: started.id, retryable: answer.retryable },
      );
    return view(session as ProviderSession);
  }

  async list(organizationId: OrganizationId, caseId: string): Promise<ListValue<ProviderSessionView>> {
    const c = UUID.test(caseId) ? await this.cases.get(organizationId, caseId) : null;
    if (!c) throw casesError(CasesError.NOT_FOUND, { caseId });
    const rows = await this.sessions.ofCase(organizationId, caseId);
    return { items: rows.map(view), total: rows.length };
  }
}
