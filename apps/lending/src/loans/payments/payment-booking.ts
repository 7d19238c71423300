import { LEDGER_ACCOUNTS, type LedgerAccount } from '../ledger/chart-of-accounts';
import type { AccountTotals } from '../ledger/ledger.repository';
import { Posting, type PostingLine } from '../ledger/posting';
import type { Allocation, DebtComponent } from '../math';
import { spread, type DebtPlan, type PositionRow } from './payment-plan';

/** The account a payment credits for each component (interest: see `paymentLines`). */
const ACCOUNT_OF: Record<DebtComponent, LedgerAccount> = {
  fees: 'fee_receivable',
  penalties: 'penalty_receivable',
  overdueInterest: 'interest_receivable',
  currentInterest: 'interest_receivable',
  overduePrincipal: 'loan_principal',
  currentPrincipal: 'loan_principal',
};

export interface PaymentBooking {
  lines: PostingLine[];
  /** Principal the payment repaid, scheduled and ahead of schedule. */
  principalPaid: number;
  /** Of it, what was ahead of the schedule (an early repayment's prepayment). */
  prepaid: number;
}

/**
 * The balanced lines of a payment: cash in, and each component's share credited to what it settles,
 * instalment by instalment. Interest is credited to `interest_receivable` as far as interest has been
 * accrued (`interestReceivable`); interest paid before it accrued (an instalment paid ahead) goes to
 * `interest_advance`, which the accruals consume later. What exceeds every debt is an overpayment.
 */
export function paymentLines(
  amount: number,
  plan: DebtPlan,
  allocation: Allocation,
  interestReceivable: number,
): PaymentBooking {
  const p = new Posting().debit('cash', amount);
  let receivable = Math.max(0, interestReceivable);
  let principalPaid = 0;
  let prepaid = 0;
  for (const c of plan.order) {
    for (const piece of spread(plan.buckets[c], allocation.parts[c])) {
      const tag = { component: c, instalmentId: piece.instalmentId };
      const account = ACCOUNT_OF[c];
      if (account === 'interest_receivable') {
        const accrued = Math.min(receivable, piece.amount);
        receivable -= accrued;
        p.credit('interest_receivable', accrued, tag).credit('interest_advance', piece.amount - accrued, tag);
      } else p.credit(account, piece.amount, tag);
      if (account === 'loan_principal') {
        principalPaid += piece.amount;
        if (piece.instalmentId === null) prepaid += piece.amount;
      }
    }
  }
  p.credit('overpayment', allocation.overpayment);
  return { lines: p.lines(), principalPaid, prepaid };
}

/** Account totals once `lines` are booked on top of `totals`. */
export function withLines(
  totals: Record<LedgerAccount, AccountTotals>,
  lines: readonly PostingLine[],
): Record<LedgerAccount, AccountTotals> {
  const out = Object.fromEntries(LEDGER_ACCOUNTS.map((a) => [a, { ...totals[a] }])) as Record<
    LedgerAccount,
    AccountTotals
  >;
  for (const l of lines) {
    out[l.account].debit += l.debit;
    out[l.account].credit += l.credit;
  }
  return out;
}

/** The rows still in force once `lines` are booked and the rows in `superseded` replaced. */
export function rowsAfter(
  rows: readonly PositionRow[],
  lines: readonly PostingLine[],
  superseded: ReadonlySet<string>,
) {
  const paid = new Map(rows.map((r) => [r.id, { ...r.paid }]));
  for (const l of lines) {
    const p = l.instalmentId ? paid.get(l.instalmentId) : undefined;
    if (!p) continue;
    const net = l.credit - l.debit;
    if (l.account === 'loan_principal') p.principal += net;
    else if (l.account === 'interest_receivable' || l.account === 'interest_advance') p.interest += net;
    else if (l.account === 'fee_receivable') p.fees += net;
  }
  return rows.filter((r) => !superseded.has(r.id)).map((r) => ({ ...r, paid: paid.get(r.id) ?? r.paid }));
}

/** Whether nothing is owed any more: no principal, every instalment in force paid, no fees or penalties. */
export function fullyRepaid(
  rows: readonly PositionRow[],
  balances: { loan_principal: number; fee_receivable: number; penalty_receivable: number },
): boolean {
  return (
    balances.loan_principal <= 0 &&
    balances.fee_receivable <= 0 &&
    balances.penalty_receivable <= 0 &&
    rows.every(
      (r) => r.paid.principal >= r.principal && r.paid.interest >= r.interest && r.paid.fees >= r.fees,
    )
  );
}
