import { Injectable } from '@nestjs/common';
import type { Language } from '@platform/i18n';
import { offerCostOfCredit } from '../loans/cost-of-credit';
import { todayUtc } from '../loans/loan-dates';
import type { LoanProduct } from '../loans/products/loan-product.entity';
import type { LoanApplication } from './application.entity';
import { ApplicationTexts } from './application-texts';
import type { ApplicationCheck } from './checks/application-check.entity';
import { CHECK_STEPS } from './checks/check-steps';
import type { ApplicationDecision } from './decisions/application-decision.entity';
import type {
  AllowedMoveResponse,
  ApplicationDetailsResponse,
  ApplicationResponse,
} from './dto/application.response';
import type { CheckResponse } from './dto/check.response';
import type { DecisionResponse } from './dto/decision.response';
import type { ExternalCallResponse } from './dto/external-call.response';
import type { StatusChangeResponse } from './dto/history.response';
import type { ExternalCall } from './external-calls/external-call.entity';
import { maskIdentifier } from './external-calls/redaction';
import { transitionsFrom } from './workflow/application-workflow';
import type { ApplicationStatusChange } from './workflow/status-change.entity';

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** Rows as the API answers them: camelCase, statuses with their names in the request's language. */
@Injectable()
export class ApplicationViews {
  constructor(private readonly texts: ApplicationTexts) {}

  application(a: LoanApplication, lang: Language): ApplicationResponse {
    const hasRequest =
      a.productCode !== null && a.amount !== null && a.currency !== null && a.termMonths !== null;
    return {
      id: a.id,
      status: a.status,
      statusName: this.texts.status(a.status, lang),
      customerId: a.customerId,
      product: hasRequest
        ? {
            productCode: a.productCode as string,
            amount: a.amount as number,
            currency: a.currency as string,
            termMonths: a.termMonths as number,
            purpose: a.purpose,
          }
        : null,
      applicant:
        a.nationalId !== null
          ? {
              nationalIdMasked: maskIdentifier(a.nationalId),
              monthlyIncome: a.monthlyIncome ?? 0,
              monthlyExpenses: a.monthlyExpenses ?? 0,
            }
          : null,
      channel: a.channel,
      createdAt: a.createdAt.toISOString(),
      updatedAt: a.updatedAt.toISOString(),
    };
  }

  details(
    a: LoanApplication,
    checks: ApplicationCheck[],
    decisions: ApplicationDecision[],
    lang: Language,
    product: LoanProduct | null = null,
  ): ApplicationDetailsResponse {
    const latest = decisions.at(-1);
    return {
      ...this.application(a, lang),
      checks: this.checks(checks, lang),
      decision: latest ? this.decision(latest, lang, product) : null,
      allowedMoves: this.moves(a.status, lang),
    };
  }

  moves(status: string, lang: Language): AllowedMoveResponse[] {
    return transitionsFrom(status).map((t) => ({
      action: t.action,
      to: t.to,
      toName: this.texts.status(t.to, lang),
      by: t.by,
    }));
  }

  /** In the order the steps run. */
  checks(rows: ApplicationCheck[], lang: Language): CheckResponse[] {
    return [...rows]
      .sort((x, y) => CHECK_STEPS.indexOf(x.step) - CHECK_STEPS.indexOf(y.step))
      .map((c) => ({
        step: c.step,
        stepName: this.texts.name('checkSteps', c.step, lang),
        status: c.status,
        statusName: this.texts.name('checkStatuses', c.status, lang),
        provider: c.provider,
        attempts: c.attempts,
        reasonCode: c.reasonCode,
        result: c.result,
        startedAt: iso(c.startedAt),
        completedAt: iso(c.completedAt),
      }));
  }

  /**
   * `product`: the application's product, for the offer's full cost of credit (docs/lending/loans.md,
   * "Full cost of credit"); without it, or in another currency, the offer has none.
   */
  decision(
    d: ApplicationDecision,
    lang: Language,
    product: LoanProduct | null = null,
    today = todayUtc(),
  ): DecisionResponse {
    const offered = d.offeredAmount !== null && d.offeredCurrency !== null && d.offeredTermMonths !== null;
    return {
      id: d.id,
      applicationId: d.applicationId,
      outcome: d.outcome,
      outcomeName: this.texts.name('decisionOutcomes', d.outcome, lang),
      decidedBy: d.decidedBy,
      keyId: d.keyId,
      reasons: d.reasons.map((code) => ({ code, text: this.texts.name('decisionReasons', code, lang) })),
      offer: offered
        ? {
            amount: d.offeredAmount as number,
            currency: d.offeredCurrency as string,
            termMonths: d.offeredTermMonths as number,
            annualRateBps: d.offeredRateBps,
            costOfCredit:
              product && product.currency === d.offeredCurrency
                ? offerCostOfCredit(
                    product,
                    {
                      amount: d.offeredAmount as number,
                      termMonths: d.offeredTermMonths as number,
                      annualRateBps: d.offeredRateBps,
                    },
                    today,
                  )
                : null,
          }
        : null,
      note: d.note,
      createdAt: d.createdAt.toISOString(),
    };
  }

  statusChange(h: ApplicationStatusChange, lang: Language): StatusChangeResponse {
    return {
      seq: h.seq,
      fromStatus: h.fromStatus,
      fromStatusName: h.fromStatus === null ? null : this.texts.status(h.fromStatus, lang),
      toStatus: h.toStatus,
      toStatusName: this.texts.status(h.toStatus, lang),
      action: h.action,
      actor: h.actor,
      keyId: h.keyId,
      reason: h.reason,
      at: h.createdAt.toISOString(),
    };
  }

  externalCall(c: ExternalCall): ExternalCallResponse {
    return {
      id: c.id,
      applicationId: c.applicationId,
      customerId: c.customerId,
      checkStep: c.checkStep,
      provider: c.provider,
      operation: c.operation,
      mode: c.mode,
      status: c.status,
      durationMs: c.durationMs,
      request: c.request,
      response: c.response,
      error: c.error,
      startedAt: c.startedAt.toISOString(),
    };
  }
}
