import { Injectable } from '@nestjs/common';
import type { Language } from '@platform/i18n';
import type { Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import type { IdempotentRequest } from '../../idempotency/idempotent-request';
import { IdempotentOperations } from '../../idempotency/idempotent-operations';
import type { ReversePaymentRequest } from '../dto/payment.request';
import type { ReversalResponse } from '../dto/payment.response';
import { LoanEvents } from '../events/loan-events';
import type { ReversalReason } from '../events/loan-facts';
import { balancesOf } from '../ledger/balances';
import { JOB_KINDS } from '../ledger/chart-of-accounts';
import type { LedgerTransaction } from '../ledger/ledger-transaction.entity';
import { LedgerRepository } from '../ledger/ledger.repository';
import { LoanBook } from '../ledger/loan-book';
import { Posting, type PostingLine } from '../ledger/posting';
import { daysBetween } from '../loan-dates';
import type { Loan } from '../loan.entity';
import { LoanMoves } from '../loan-moves';
import { LoanTexts } from '../loan-texts';
import { LoanViews } from '../loan-views';
import { LoanError, loanError } from '../loans.errors';
import { DEBT_COMPONENTS, type DebtComponent } from '../math';
import { InstalmentsRepository } from '../schedule/instalments.repository';
import { withLines } from './payment-booking';
import { ScheduleVersionsRepository } from '../schedule/schedule-versions.repository';

const zeroParts = () =>
  Object.fromEntries(DEBT_COMPONENTS.map((c) => [c, 0])) as Record<DebtComponent, number>;

/**
 * ReversePayment (docs/lending/loans.md, "Reversal"): posts the mirror of a payment's lines (every
 * debit a credit and back), so every balance derived from the ledger is what it was before the
 * payment; a schedule the payment regenerated is replaced by the one it had replaced; a loan the
 * payment closed is active again. Only the loan's latest transaction is reversed: a later one was
 * computed on the balances this payment left.
 */
@Injectable()
export class ReversalsService {
  constructor(
    private readonly idempotency: IdempotentOperations,
    private readonly moves: LoanMoves,
    private readonly ledger: LedgerRepository,
    private readonly instalments: InstalmentsRepository,
    private readonly book: LoanBook,
    private readonly views: LoanViews,
    private readonly texts: LoanTexts,
    private readonly events: LoanEvents,
    private readonly versions: ScheduleVersionsRepository,
  ) {}

  reverse(
    organizationId: OrganizationId,
    keyId: string,
    op: IdempotentRequest,
    dto: ReversePaymentRequest,
    lang: Language,
  ): Promise<ReversalResponse> {
    return this.idempotency.run(organizationId, op, async (tx) => {
      const loan = await this.moves.lockOrFail(organizationId, dto.loanId, tx);
      const original = await this.ledger.byId(organizationId, loan.id, dto.transactionId, tx);
      if (!original) throw loanError(LoanError.TRANSACTION_NOT_FOUND, { transactionId: dto.transactionId });
      if (original.kind !== 'repayment')
        throw loanError(
          LoanError.TRANSACTION_NOT_REVERSIBLE,
          { kindName: this.texts.name('transactionKinds', original.kind, lang) },
          { kind: original.kind },
        );
      const reversal = await this.ledger.reversalOf(organizationId, original.id, tx);
      if (reversal) throw loanError(LoanError.TRANSACTION_ALREADY_REVERSED, {}, { reversedBy: reversal.id });
      const d = original.details as {
        parts?: Record<DebtComponent, number>;
        debts?: Record<DebtComponent, number>;
        order?: DebtComponent[];
        overpayment?: number;
        rule?: string;
        scheduleChanged?: boolean;
      };
      const originalLines = await this.ledger.linesOf(organizationId, [original.id], tx);
      const blocking = await this.standingOn(
        organizationId,
        loan,
        original,
        originalLines,
        !!d.scheduleChanged,
        tx,
      );
      if (blocking)
        throw loanError(LoanError.TRANSACTION_NOT_LATEST, {}, { latestTransactionId: blocking.id });
      const lines = Posting.mirror(originalLines).lines();
      // Accruals after the payment may have earned interest it had paid ahead: what its mirror would take
      // off interest received in advance beyond its balance is interest receivable again.
      const after = balancesOf(withLines(await this.ledger.totals(organizationId, loan.id, tx), lines));
      const reclassified = Math.max(0, -after.interest_advance);
      const posted = reclassified
        ? [
            ...lines,
            ...new Posting()
              .debit('interest_receivable', reclassified)
              .credit('interest_advance', reclassified)
              .lines(),
          ]
        : lines;
      const transaction = await this.ledger.post(
        organizationId,
        {
          loanId: loan.id,
          kind: 'reversal',
          amount: original.amount,
          valueDate: original.valueDate,
          reversesId: original.id,
          idempotencyKey: op.key,
          details: {
            reason: dto.reason ?? null,
            reasonCode: dto.reasonCode ?? 'booked-in-error',
            scheduleRestored: !!d.scheduleChanged,
            interestReclassified: reclassified,
          },
          keyId,
        },
        posted,
        tx,
      );
      if (d.scheduleChanged) {
        await this.instalments.undoChange(organizationId, loan.id, original.id, transaction.id, tx);
        await this.versions.record(organizationId, loan.id, transaction.id, tx);
      }
      const reopened = loan.status === 'closed';
      if (reopened)
        await this.moves.move(organizationId, loan, 'active', 'ReversePayment', lang, tx, { closedOn: null });
      const position = await this.book.position(organizationId, loan.id, tx);
      await this.events.record(tx, organizationId, {
        kind: 'reversal',
        loan,
        transaction,
        reversed: original,
        reason: dto.reason ?? null,
        reasonCode: (dto.reasonCode ?? 'booked-in-error') as ReversalReason,
        lines,
        reclassified,
        rows: position.rows,
        balances: position.balances,
        reopened,
      });
      const order = d.order ?? [...DEBT_COMPONENTS];
      return {
        transactionId: transaction.id,
        reversedTransactionId: original.id,
        loanId: loan.id,
        amount: original.amount,
        valueDate: original.valueDate,
        parts: this.views.parts(order, d.debts ?? zeroParts(), d.parts ?? zeroParts(), lang),
        overpayment: d.overpayment ?? 0,
        rule: d.rule ?? '',
        ruleText: this.views.ruleText(order, lang),
        scheduleRestored: !!d.scheduleChanged,
        loanStatus: loan.status,
        loanStatusName: this.texts.status(loan.status, lang),
        balances: this.views.balances(loan.id, loan.currency, position.totals, lang),
      };
    });
  }

  /**
   * The transaction that stands on the payment, if any: a later operation (reverse that one first),
   * or the accruals after it when they depend on it. A later payment already reversed and its reversal
   * cancel out: neither stands on it (so payments are reversed latest first, one after the other). The
   * daily accruals after a payment are computed on the schedule, not on what was paid, and what is
   * overdue is made good by the next day's start, so they do not stand on a payment unless it changed
   * the schedule (its interest accrued on the new one),
   * or penalties would have run on what it paid (an instalment it paid fell due, past its grace days,
   * before the last day accrued).
   */
  private async standingOn(
    organizationId: OrganizationId,
    loan: Loan,
    original: LedgerTransaction,
    lines: PostingLine[],
    scheduleChanged: boolean,
    tx: Tx,
  ): Promise<LedgerTransaction | null> {
    const reversals = await this.ledger.reversalsOf(organizationId, loan.id, tx);
    const cancelled = new Set([...reversals].flatMap(([reversed, reversal]) => [reversed, reversal]));
    const later = (await this.ledger.after(organizationId, loan.id, original.seq, tx)).filter(
      (t) => !cancelled.has(t.id),
    );
    const operation = later.find((t) => !JOB_KINDS.includes(t.kind));
    if (operation || !later.length) return operation ?? null;
    const last = later[later.length - 1];
    if (scheduleChanged) return last;
    if (/^0(\.0*)?$/.test(loan.penaltyAnnualRate)) return null;
    const paid = [...new Set(lines.map((l) => l.instalmentId).filter((id) => id !== null))];
    const rows = await this.instalments.byIds(organizationId, loan.id, paid, tx);
    const lastDay = later.reduce((m, t) => (t.valueDate > m ? t.valueDate : m), original.valueDate);
    return rows.some((r) => daysBetween(r.dueDate, lastDay) > loan.penaltyGraceDays) ? last : null;
  }
}
