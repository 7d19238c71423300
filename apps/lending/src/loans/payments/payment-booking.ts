import { LEDGER_ACCOUNTS, type LedgerAccount } from '../ledger/chart-of-accounts';
import type { AccountTotals, OverdueBalance } from '../ledger/ledger.repository';
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
 * instalment by instalment. An overdue component is credited to the overdue account as far as the
 * accruals job moved that instalment's debt there (`onOverdue`), the rest as current. Interest is
 * credited to `interest_receivable` as far as interest has been accrued (`interestReceivable`);
 * interest paid before it accrued (an instalment paid ahead) goes to `interest_advance`, which the
 * accruals consume later. What exceeds every debt is an overpayment.
 */
export function paymentLines(
  amount: number,
  plan: DebtPlan,
  allocation: Allocation,
  interestReceivable: number,
  onOverdue: ReadonlyMap<string, OverdueBalance> = new Map(),
): PaymentBooking {
  const p = new Posting().debit('cash', amount);
  let receivable = Math.max(0, interestReceivable);
  let principalPaid = 0;
  let prepaid = 0;
  const overdueLeft = new Map([...onOverdue].map(([k, v]) => [k, { ...v }]));
  for (const c of plan.order) {
    for (const piece of spread(plan.buckets[c], allocation.parts[c])) {
      const tag = { component: c, instalmentId: piece.instalmentId };
      const account = ACCOUNT_OF[c];
      let rest = piece.amount;
      const there = piece.instalmentId ? overdueLeft.get(piece.instalmentId) : undefined;
      if (there && (c === 'overduePrincipal' || c === 'overdueInterest')) {
        const side = c === 'overduePrincipal' ? 'principal' : 'interest';
        const fromOverdue = Math.min(rest, Math.max(0, there[side]));
        there[side] -= fromOverdue;
        rest -= fromOverdue;
        p.credit(side === 'principal' ? 'overdue_principal' : 'overdue_interest', fromOverdue, tag);
      }
      if (account === 'interest_receivable') {
        const accrued = Math.min(receivable, rest);
        receivable -= accrued;
        p.credit('interest_receivable', accrued, tag).credit('interest_advance', rest - accrued, tag);
      } else p.credit(account, rest, tag);
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
    if (l.account === 'loan_principal' || l.account === 'overdue_principal') p.principal += net;
    else if (
      l.account === 'interest_receivable' ||
      l.account === 'interest_advance' ||
      l.account === 'overdue_interest'
    )
      p.interest += net;
    else if (l.account === 'fee_receivable') p.fees += net;
  }
  return rows.filter((r) => !superseded.has(r.id)).map((r) => ({ ...r, paid: paid.get(r.id) ?? r.paid }));
}

/** Whether nothing is owed any more: no principal, every instalment in force paid, no fees or penalties. */
export function fullyRepaid(
  rows: readonly PositionRow[],
  balances: {
    loan_principal: number;
    overdue_principal: number;
    fee_receivable: number;
    penalty_receivable: number;
  },
): boolean {
  return (
    balances.loan_principal + balances.overdue_principal <= 0 &&
    balances.fee_receivable <= 0 &&
    balances.penalty_receivable <= 0 &&
    rows.every(
      (r) => r.paid.principal >= r.principal && r.paid.interest >= r.interest && r.paid.fees >= r.fees,
    )
  );
}

/**
 * When a payment closes the loan, what is left on the interest accounts is settled against interest
 * income: interest paid ahead of days that will not come (the last instalment paid before its due date)
 * is earned now; accrued interest no instalment billed (sub-unit residues of deferred interest) is taken
 * back. Nothing then stays on `interest_receivable` or `interest_advance` of a closed loan. The lines
 * name no component or instalment: they settle no debt.
 */
export function closingSettlement(balances: {
  interest_receivable: number;
  interest_advance: number;
}): PostingLine[] {
  const p = new Posting();
  const advance = Math.max(0, balances.interest_advance);
  const receivable = Math.max(0, balances.interest_receivable);
  p.debit('interest_advance', advance).credit('interest_income', advance);
  p.debit('interest_income', receivable).credit('interest_receivable', receivable);
  return advance + receivable > 0 ? p.lines() : [];
}

/** Whether a payment line is part of a closing settlement (not a debt settled). */
export const isSettlementLine = (l: PostingLine): boolean =>
  l.component === null &&
  l.instalmentId === null &&
  (l.account === 'interest_income' ||
    l.account === 'interest_advance' ||
    l.account === 'interest_receivable');
