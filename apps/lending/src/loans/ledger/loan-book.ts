import { Injectable } from '@nestjs/common';
import type { Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import type { AccrualStateValues } from '../accruals/loan-accrual-states.repository';
import type { PositionRow } from '../payments/payment-plan';
import { InstalmentsRepository } from '../schedule/instalments.repository';
import type { LoanInstalment } from '../schedule/loan-instalment.entity';
import { balancesOf, type AccountBalances } from './balances';
import { LEDGER_ACCOUNTS, type LedgerAccount } from './chart-of-accounts';
import type { AccountTotals, OverdueBalance } from './ledger.repository';
import { checkPositionRange } from './money-range';
import type { PostingLine } from './posting';

/** A loan's money as the ledger has it now: the schedule in force with what was paid, and the balances. */
export interface LoanPosition {
  rows: PositionRow[];
  totals: Record<LedgerAccount, AccountTotals>;
  balances: AccountBalances;
  /** What each instalment has on the overdue accounts (moved there, less what was paid of it). */
  onOverdue: Map<string, OverdueBalance>;
  /** The value date of the loan's latest transaction (null before the first). */
  lastValueDate: string | null;
  /** How far the loan's accruals have gone, read with the position (null before the first catch-up). */
  accrualState: AccrualStateValues | null;
}

const ZERO = { principal: 0, interest: 0, fees: 0 };

/** A schedule row (stored, or just computed with the id it is stored under) as a row of the position. */
export function positionRow(
  i: Pick<
    LoanInstalment,
    'id' | 'number' | 'periodStart' | 'dueDate' | 'principal' | 'interest' | 'fees' | 'balanceAfter'
  >,
  paid = ZERO,
): PositionRow {
  return {
    id: i.id,
    number: i.number,
    periodStart: i.periodStart,
    dueDate: i.dueDate,
    principal: i.principal,
    interest: i.interest,
    fees: i.fees,
    balanceAfter: i.balanceAfter,
    paid,
  };
}

const PRINCIPAL: readonly LedgerAccount[] = ['loan_principal', 'overdue_principal'];
const INTEREST: readonly LedgerAccount[] = ['interest_receivable', 'interest_advance', 'overdue_interest'];

/**
 * The position once `lines` are booked on `before`, without reading it back: the totals with the lines
 * added, and each instalment's paid and overdue amounts moved by the lines naming it, by the same rules
 * as the position read (paid: credits minus debits on the principal, interest and fee accounts;
 * overdue: debits minus credits on the overdue accounts). With `schedule`, the rows it supersedes leave
 * and the rows it adds (nothing paid on them yet) join the schedule in force.
 */
export function advancePosition(
  before: LoanPosition,
  lines: readonly PostingLine[],
  lastValueDate: string,
  schedule?: { superseded: ReadonlySet<string>; added: readonly PositionRow[] },
): LoanPosition {
  const totals = Object.fromEntries(LEDGER_ACCOUNTS.map((a) => [a, { ...before.totals[a] }])) as Record<
    LedgerAccount,
    AccountTotals
  >;
  const paid = new Map(before.rows.map((r) => [r.id, { ...r.paid }]));
  const onOverdue = new Map([...before.onOverdue].map(([k, v]) => [k, { ...v }]));
  for (const l of lines) {
    totals[l.account].debit += l.debit;
    totals[l.account].credit += l.credit;
    if (!l.instalmentId) continue;
    const net = l.credit - l.debit;
    const p = paid.get(l.instalmentId);
    if (p) {
      if (PRINCIPAL.includes(l.account)) p.principal += net;
      else if (INTEREST.includes(l.account)) p.interest += net;
      else if (l.account === 'fee_receivable') p.fees += net;
    }
    if (l.account === 'overdue_principal' || l.account === 'overdue_interest') {
      const o = onOverdue.get(l.instalmentId) ?? { principal: 0, interest: 0 };
      if (l.account === 'overdue_principal') o.principal -= net;
      else o.interest -= net;
      onOverdue.set(l.instalmentId, o);
    }
  }
  const kept = before.rows.map((r) => ({ ...r, paid: paid.get(r.id) ?? r.paid }));
  const rows = schedule
    ? [...kept.filter((r) => !schedule.superseded.has(r.id)), ...schedule.added].sort(
        (x, y) => x.number - y.number,
      )
    : kept;
  // The same range check as a read: the operation's result stays exact, or it is refused before commit.
  checkPositionRange(totals, rows);
  return {
    rows,
    totals,
    balances: balancesOf(totals),
    onOverdue,
    lastValueDate:
      !before.lastValueDate || lastValueDate > before.lastValueDate ? lastValueDate : before.lastValueDate,
    // As read before the operation (the pipeline reads it again when the catch-up posts).
    accrualState: before.accrualState,
  };
}

/** Reads a loan's position from its schedule and its ledger lines (inside the caller's transaction). */
@Injectable()
export class LoanBook {
  constructor(private readonly instalments: InstalmentsRepository) {}

  /** One round trip (InstalmentsRepository.position). */
  async position(organizationId: OrganizationId, loanId: string, tx: Tx): Promise<LoanPosition> {
    const read = await this.instalments.position(organizationId, loanId, tx);
    const totals = Object.fromEntries(LEDGER_ACCOUNTS.map((a) => [a, { debit: 0, credit: 0 }])) as Record<
      LedgerAccount,
      AccountTotals
    >;
    for (const t of read.totals) totals[t.account as LedgerAccount] = { debit: t.debit, credit: t.credit };
    // After an operation books (the pipeline reads the position then when the schedule changed, before
    // commit) this refuses a result outside the exact range: the whole schedule in force and the whole
    // ledger, not just the rows and lines the operation wrote.
    checkPositionRange(totals, read.rows);
    const paid = new Map(read.byInstalment.map((b) => [b.id, b.paid]));
    const onOverdue = new Map<string, OverdueBalance>();
    // Only instalments with lines on the overdue accounts, whatever those lines net to.
    for (const b of read.byInstalment)
      if (b.overdue.principal !== 0 || b.overdue.interest !== 0 || b.onOverdue)
        onOverdue.set(b.id, b.overdue);
    return {
      rows: read.rows.map((r) => ({ ...r, paid: paid.get(r.id) ?? ZERO })),
      totals,
      balances: balancesOf(totals),
      onOverdue,
      lastValueDate: read.lastValueDate,
      accrualState: read.accrualState,
    };
  }
}
