import { Injectable } from '@nestjs/common';
import type { ListValue } from '@platform/envelope';
import type { OrganizationId } from '@platform/tenancy';
import { CasesError, casesError } from '../cases/cases.errors';
import { CasesRepository } from '../cases/cases.repository';
import type { CheckStep } from './check-step.entity';
import { CheckStepsRepository } from './check-steps.repository';

export interface CheckStepView {
  id: string;
  step: string;
  outcome: string;
  rule: string;
  evidence: Record<string, unknown>;
  detail: string | null;
  documentId: string | null;
  providerSessionId: string | null;
  createdAt: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const checkStepView = (s: CheckStep): CheckStepView => ({
  id: s.id,
  step: s.step,
  outcome: s.outcome,
  rule: s.rule,
  evidence: s.evidence,
  detail: s.detail,
  documentId: s.documentId,
  providerSessionId: s.providerSessionId,
  createdAt: s.createdAt.toISOString(),
});

/** Reading the stored check steps of a case ("each step's result is stored and visible"). */
@Injectable()
export class ChecksService {
  constructor(
    private readonly cases: CasesRepository,
    private readonly steps: CheckStepsRepository,
  ) {}

  async ofCase(organizationId: OrganizationId, caseId: string): Promise<ListValue<CheckStepView>> {
    const c = UUID.test(caseId) ? await this.cases.get(organizationId, caseId) : null;
    if (!c) throw casesError(CasesError.NOT_FOUND, { caseId });
    const rows = await this.steps.ofCase(organizationId, caseId);
    return { items: rows.map(checkStepView), total: rows.length };
  }
}
