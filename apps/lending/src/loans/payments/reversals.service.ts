import { Injectable } from '@nestjs/common';
import type { Language } from '@platform/i18n';
import type { OrganizationId } from '@platform/tenancy';
import type { IdempotentRequest } from '../../idempotency/idempotent-request';
import { IdempotentOperations } from '../../idempotency/idempotent-operations';
import type { ReversePaymentRequest } from '../dto/payment.request';
import type { ReversalResponse } from '../dto/payment.response';
import { LoanEvents } from '../events/loan-events';
import type { ReversalReason } from '../events/loan-facts';
import { LedgerRepository } from '../ledger/ledger.repository';
import { LoanBook } from '../ledger/loan-book';
import { Posting } from '../ledger/posting';
import { LoanMoves } from '../loan-moves';
import { LoanTexts } from '../loan-texts';
import { LoanViews } from '../loan-views';
import { LoanError, loanError } from '../loans.errors';
import { DEBT_COMPONENTS, type DebtComponent } from '../math';
import { InstalmentsRepository } from '../schedule/instalments.repository';
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
      const latest = await this.ledger.latest(organizationId, loan.id, tx);
      if (latest && latest.id !== original.id)
        throw loanError(LoanError.TRANSACTION_NOT_LATEST, {}, { latestTransactionId: latest.id });
      const lines = Posting.mirror(await this.ledger.linesOf(organizationId, [original.id], tx)).lines();
      const d = original.details as {
        parts?: Record<DebtComponent, number>;
        debts?: Record<DebtComponent, number>;
        order?: DebtComponent[];
        overpayment?: number;
        rule?: string;
        scheduleChanged?: boolean;
      };
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
          },
          keyId,
        },
        lines,
        tx,
      );
      if (d.scheduleChanged) {
        await this.instalments.undoChange(organizationId, loan.id, original.id, transaction.id, tx);
        await this.versions.record(organizationId, loan.id, transaction.id, tx);
      }
      const reopened = loan.status === 'closed';
      if (reopened)
        await this.moves.move(organizationId, loan, 'active', 'ReversePayment', lang, tx, { closedOn: null });
      const after = await this.book.position(organizationId, loan.id, tx);
      await this.events.record(tx, organizationId, {
        kind: 'reversal',
        loan,
        transaction,
        reversed: original,
        reason: dto.reason ?? null,
        reasonCode: (dto.reasonCode ?? 'booked-in-error') as ReversalReason,
        lines,
        rows: after.rows,
        balances: after.balances,
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
        balances: this.views.balances(loan.id, loan.currency, after.totals, lang),
      };
    });
  }
}
