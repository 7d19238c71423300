import { Injectable } from '@nestjs/common';
import type { Language } from '@platform/i18n';
import type { Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { TenantData } from '../../tenancy/tenant-data';
import type { LoanApplication } from '../application.entity';
import { ApplicationTexts } from '../application-texts';
import { ApplicationError, applicationError } from '../applications.errors';
import { ApplicationsRepository } from '../applications.repository';
import { ApplicationsService } from '../applications.service';
import { ApplicationDecisionsRepository } from '../decisions/application-decisions.repository';
import { AUTO_APPROVE_MIN_SCORE, rulesVerdict } from '../decisions/decision-rules';
import type { ApplicationDetailsResponse } from '../dto/application.response';
import type { CreditReport } from '../providers/check-providers';
import { checksClaimExpired } from '../workflow/application-workflow';
import { ApplicationWorkflowService, type MoveBy } from '../workflow/application-workflow.service';
import type { ApplicationCheck } from './application-check.entity';
import { ApplicationChecksRepository } from './application-checks.repository';
import { CHECK_STEPS, type CheckStep } from './check-steps';
import { StepExecutor, type RunSnapshot } from './step-executor';

/**
 * Runs the check steps (docs/lending/applications.md, "Check steps"). RunChecks claims the run under
 * the application's row lock (submitted -> checks_in_progress, five pending steps), then calls the
 * providers one step at a time outside any transaction (a slow provider holds no lock or connection),
 * logging each call, and finally applies the decision rules under the lock again, unless the
 * application moved meanwhile (withdrawn) or a later run took it over. RunCheck retries one step that
 * ended in an error, while the application is under review.
 */
@Injectable()
export class CheckRunnerService {
  constructor(
    private readonly data: TenantData,
    private readonly applications: ApplicationsRepository,
    private readonly checks: ApplicationChecksRepository,
    private readonly decisions: ApplicationDecisionsRepository,
    private readonly workflow: ApplicationWorkflowService,
    private readonly reader: ApplicationsService,
    private readonly texts: ApplicationTexts,
    private readonly executor: StepExecutor,
  ) {}

  async runChecks(
    organizationId: OrganizationId,
    keyId: string,
    applicationId: string,
    lang: Language,
  ): Promise<ApplicationDetailsResponse> {
    const by: MoveBy = { actor: 'key', keyId };
    const { snapshot, claim } = await this.data.run(organizationId, async (tx) => {
      const app = await this.workflow.lockOrFail(organizationId, applicationId, tx);
      if (app.status === 'checks_in_progress') {
        if (!checksClaimExpired(app.checksStartedAt, new Date()))
          throw applicationError(ApplicationError.CHECKS_RUNNING, {}, { applicationId });
        const checksStartedAt = new Date();
        await this.applications.change(organizationId, app.id, { checksStartedAt }, tx);
        await this.workflow.note(
          organizationId,
          app,
          { action: 'RunChecks', by, reason: 'took over a check run that did not finish' },
          tx,
        );
        app.checksStartedAt = checksStartedAt;
      } else {
        await this.workflow.move(
          organizationId,
          app,
          { to: 'checks_in_progress', action: 'RunChecks', by },
          lang,
          tx,
        );
      }
      const steps = CHECK_STEPS.map((step) => ({ step, provider: this.executor.providerName(step) }));
      await this.checks.reset(organizationId, app.id, steps, tx);
      return { snapshot: this.snapshot(app), claim: app.checksStartedAt as Date };
    });

    for (const step of CHECK_STEPS) {
      const attempt = await this.data.run(organizationId, (tx) =>
        this.checks.start(organizationId, applicationId, step, tx),
      );
      await this.runStep(organizationId, snapshot, step, attempt);
    }

    await this.data.run(organizationId, async (tx) => {
      const app = await this.applications.lock(organizationId, applicationId, tx);
      // Withdrawn while the providers answered, or taken over by a later run: not ours to decide.
      if (app?.status !== 'checks_in_progress' || app.checksStartedAt?.getTime() !== claim.getTime()) return;
      await this.applyRules(
        organizationId,
        app,
        keyId,
        lang,
        await this.checks.forApplication(organizationId, app.id, tx),
        tx,
      );
    });
    return this.reader.details(organizationId, applicationId, lang);
  }

  async runCheck(
    organizationId: OrganizationId,
    applicationId: string,
    step: CheckStep,
    lang: Language,
  ): Promise<ApplicationDetailsResponse> {
    const { snapshot, attempt } = await this.data.run(organizationId, async (tx) => {
      const app = await this.workflow.lockOrFail(organizationId, applicationId, tx);
      const row = (await this.checks.forApplication(organizationId, app.id, tx)).find((c) => c.step === step);
      const stuck = row?.status === 'running' && checksClaimExpired(row.startedAt, new Date());
      if (app.status !== 'under_review' || !row || !(row.status === 'error' || stuck))
        throw applicationError(
          ApplicationError.CHECK_NOT_RETRYABLE,
          { stepName: this.texts.name('checkSteps', step, lang) },
          { step, stepStatus: row?.status ?? null, applicationStatus: app.status },
        );
      // Marked running under the lock: a concurrent retry of the same step sees it and is refused.
      return {
        snapshot: this.snapshot(app),
        attempt: await this.checks.start(organizationId, app.id, step, tx),
      };
    });
    await this.runStep(organizationId, snapshot, step, attempt);
    return this.reader.details(organizationId, applicationId, lang);
  }

  /** The decision rules, in the final transaction of a run (decision-rules.ts). */
  private async applyRules(
    organizationId: OrganizationId,
    app: LoanApplication,
    keyId: string,
    lang: Language,
    rows: ApplicationCheck[],
    tx: Tx,
  ): Promise<void> {
    const scoring = rows.find((r) => r.step === 'scoring' && r.status !== 'error');
    const score = typeof scoring?.result?.score === 'number' ? scoring.result.score : null;
    const verdict = rulesVerdict(rows, score);
    const by: MoveBy = { actor: 'rules', keyId };
    if (verdict.verdict === 'review') {
      const waiting = verdict.waitingOn.map((w) => `${w.step} ${w.status}`);
      if (score !== null && score < AUTO_APPROVE_MIN_SCORE)
        waiting.push(`score ${score} below ${AUTO_APPROVE_MIN_SCORE}`);
      const reason = `waiting for a person: ${waiting.join(', ')}`;
      await this.workflow.move(
        organizationId,
        app,
        { to: 'under_review', action: 'ChecksCompleted', by, reason },
        lang,
        tx,
      );
      return;
    }
    // The rules never approve a customer who may not start new business now (blocked, closed, a
    // required consent withdrawn): the approval waits for a person, who may decline it, or approve
    // once the customer is back in standing (docs/lending/applications.md, "Decision rules").
    const held =
      verdict.verdict === 'approve'
        ? await this.workflow.standingRefusal(organizationId, app, 'ChecksCompleted', tx)
        : null;
    if (held) {
      await this.workflow.move(
        organizationId,
        app,
        { to: 'under_review', action: 'ChecksCompleted', by, reason: `approval held: ${held}` },
        lang,
        tx,
      );
      return;
    }
    const approve = verdict.verdict === 'approve';
    // The rules offer the request as asked, at no rate of their own.
    const offer =
      approve && app.amount !== null && app.termMonths !== null
        ? { amount: app.amount, termMonths: app.termMonths, annualRateBps: null }
        : null;
    await this.workflow.move(
      organizationId,
      app,
      {
        to: approve ? 'approved' : 'declined',
        action: 'ChecksCompleted',
        by,
        reason: verdict.reasons.join(', '),
        decision: { reasons: verdict.reasons, offer },
      },
      lang,
      tx,
    );
    await this.decisions.add(
      organizationId,
      {
        applicationId: app.id,
        outcome: approve ? 'approve' : 'decline',
        decidedBy: 'rules',
        keyId,
        reasons: verdict.reasons,
        note: null,
        offeredAmount: approve ? app.amount : null,
        offeredCurrency: approve ? app.currency : null,
        offeredTermMonths: approve ? app.termMonths : null,
        offeredRateBps: null,
      },
      tx,
    );
  }

  private async runStep(organizationId: OrganizationId, s: RunSnapshot, step: CheckStep, attempt: number) {
    const bureau =
      step === 'scoring' || step === 'affordability' ? await this.bureauReport(organizationId, s) : null;
    const outcome = await this.executor.execute(organizationId, s, step, attempt, bureau);
    await this.data.run(organizationId, (tx) =>
      this.checks.finish(organizationId, s.applicationId, step, outcome, tx),
    );
  }

  /** The bureau's report for the later steps: null when the bureau step did not answer. */
  private async bureauReport(organizationId: OrganizationId, s: RunSnapshot): Promise<CreditReport | null> {
    const rows = await this.data.run(organizationId, (tx) =>
      this.checks.forApplication(organizationId, s.applicationId, tx),
    );
    const row = rows.find((r) => r.step === 'credit_bureau');
    const answered = row && ['passed', 'failed', 'needs_review'].includes(row.status) && row.result;
    return answered ? (row.result as unknown as CreditReport) : null;
  }

  private snapshot(app: LoanApplication): RunSnapshot {
    return {
      applicationId: app.id,
      applicant: { customerId: app.customerId, nationalId: app.nationalId ?? '' },
      amount: app.amount ?? 0,
      currency: app.currency ?? '',
      termMonths: app.termMonths ?? 1,
      monthlyIncome: app.monthlyIncome ?? 0,
      monthlyExpenses: app.monthlyExpenses ?? 0,
    };
  }
}
