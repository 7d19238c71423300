import { Injectable } from '@nestjs/common';
import type { Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import type { PositionRow } from '../payments/payment-plan';
import { InstalmentsRepository } from '../schedule/instalments.repository';
import type { LoanInstalment } from '../schedule/loan-instalment.entity';
import { balancesOf, type AccountBalances } from './balances';
import type { LedgerAccount } from './chart-of-accounts';
import { LedgerRepository, type AccountTotals } from './ledger.repository';
import { checkPositionRange } from './money-range';

/** A loan's money as the ledger has it now: the schedule in force with what was paid, and the balances. */
export interface LoanPosition {
  rows: PositionRow[];
  totals: Record<LedgerAccount, AccountTotals>;
  balances: AccountBalances;
}

const ZERO = { principal: 0, interest: 0, fees: 0 };

export function positionRow(i: LoanInstalment, paid = ZERO): PositionRow {
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

/** Reads a loan's position from its schedule and its ledger lines (inside the caller's transaction). */
@Injectable()
export class LoanBook {
  constructor(
    private readonly ledger: LedgerRepository,
    private readonly instalments: InstalmentsRepository,
  ) {}

  async position(organizationId: OrganizationId, loanId: string, tx: Tx): Promise<LoanPosition> {
    const rows = await this.instalments.current(organizationId, loanId, tx);
    const paid = await this.ledger.paidByInstalment(organizationId, loanId, tx);
    const totals = await this.ledger.totals(organizationId, loanId, tx);
    // After an operation books (the pipeline reads the position then, before commit) this refuses a
    // result outside the exact range: the whole schedule in force and the whole ledger, not just the
    // rows and lines the operation wrote.
    checkPositionRange(totals, rows);
    return {
      rows: rows.map((r) => positionRow(r, paid.get(r.id))),
      totals,
      balances: balancesOf(totals),
    };
  }
}
