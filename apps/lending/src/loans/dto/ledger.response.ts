import { ApiProperty } from '@nestjs/swagger';
import { LEDGER_ACCOUNTS, TRANSACTION_KINDS } from '../ledger/chart-of-accounts';
import { DEBT_COMPONENTS } from '../loan-terms';
import { LoanResponse } from './loan.response';

export const INSTALMENT_STATUSES = [
  'paid',
  'overdue',
  'due_today',
  'partially_paid',
  'upcoming',
  'superseded',
] as const;

/** One instalment of the schedule in force, with what has been paid on it. */
export class InstalmentResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 1 }) number: number;
  @ApiProperty({ format: 'date' }) periodStart: string;
  @ApiProperty({ format: 'date' }) dueDate: string;
  @ApiProperty({ example: 77893 }) principal: number;
  @ApiProperty({ example: 16667 }) interest: number;
  @ApiProperty({ example: 0 }) fees: number;
  @ApiProperty({ example: 94560 }) total: number;
  @ApiProperty({ example: 922107, description: 'Principal outstanding once it is paid' })
  balanceAfter: number;
  @ApiProperty({ example: 0 }) paidPrincipal: number;
  @ApiProperty({ example: 0 }) paidInterest: number;
  @ApiProperty({ example: 0 }) paidFees: number;
  @ApiProperty({ example: 94560, description: 'What remains to pay of it' }) remaining: number;
  @ApiProperty({
    enum: INSTALMENT_STATUSES,
    description: 'As of today (UTC); `superseded` for a row of an earlier version no longer in force',
  })
  status: string;
  @ApiProperty({ example: 'Upcoming' }) statusName: string;
}

/** One line of a ledger transaction. */
export class LedgerLineResponse {
  @ApiProperty({ enum: LEDGER_ACCOUNTS }) account: string;
  @ApiProperty({ example: 'Loan principal' }) accountName: string;
  @ApiProperty({ example: 0, description: 'Minor units' }) debit: number;
  @ApiProperty({ example: 77893, description: 'Minor units' }) credit: number;
  @ApiProperty({ enum: DEBT_COMPONENTS, nullable: true, type: String, description: 'The debt it settled' })
  component: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The instalment it settled' })
  instalmentId: string | null;
}

/** One money operation of the loan and its balanced lines. */
export class LoanTransactionResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 2, description: "1, 2, ... in the loan's booking order" }) seq: number;
  @ApiProperty({ enum: TRANSACTION_KINDS }) kind: string;
  @ApiProperty({ example: 'Repayment' }) kindName: string;
  @ApiProperty({ example: 94560, description: 'Minor units' }) amount: number;
  @ApiProperty({ format: 'date' }) valueDate: string;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'On a reversal: what it reverses',
  })
  reversesId: string | null;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The reversal of this one, if any',
  })
  reversedBy: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: "What the operation decided (a payment's parts, rule and mode; a schedule change)",
  })
  details: Record<string, unknown>;
  @ApiProperty({ type: [LedgerLineResponse] }) lines: LedgerLineResponse[];
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

/** One account of the loan's ledger. */
export class AccountBalanceResponse {
  @ApiProperty({ enum: LEDGER_ACCOUNTS }) account: string;
  @ApiProperty({ example: 'Loan principal' }) accountName: string;
  @ApiProperty({ enum: ['asset', 'liability', 'income', 'expense'] }) type: string;
  @ApiProperty({ example: 1000000 }) debit: number;
  @ApiProperty({ example: 77893 }) credit: number;
  @ApiProperty({
    example: 922107,
    description: 'Assets and expenses debit - credit, the others credit - debit',
  })
  balance: number;
}

/** A loan's balances, all derived from its ledger lines. */
export class LoanBalancesResponse {
  @ApiProperty({ format: 'uuid' }) loanId: string;
  @ApiProperty({ example: 'KZT' }) currency: string;
  @ApiProperty({ example: 922107, description: 'Principal owed, past due included' })
  principalOutstanding: number;
  @ApiProperty({ example: 0, description: 'Of it, principal past its due date' }) overduePrincipal: number;
  @ApiProperty({ example: 0, description: 'Interest accrued and not paid, not yet past due' })
  interestReceivable: number;
  @ApiProperty({ example: 0, description: 'Interest of instalments past their due date, not paid' })
  overdueInterest: number;
  @ApiProperty({ example: 16667, description: 'Interest paid before it accrued (an instalment paid ahead)' })
  interestAdvance: number;
  @ApiProperty({ example: 0 }) penaltyReceivable: number;
  @ApiProperty({ example: 0 }) feeReceivable: number;
  @ApiProperty({
    example: 0,
    description: 'Money received beyond every debt (suspense), owed to the borrower',
  })
  overpayment: number;
  @ApiProperty({
    example: -905440,
    description: 'Net cash of the loan: payments in minus the amount paid out',
  })
  cash: number;
  @ApiProperty({
    example: 922107,
    description: 'principal + interest receivable + overdue interest + penalties + fees',
  })
  totalOutstanding: number;
  @ApiProperty({ description: 'Debits equal credits over every line of the loan' }) balanced: boolean;
  @ApiProperty({ type: [AccountBalanceResponse] }) accounts: AccountBalanceResponse[];
}

/** One version of a loan's schedule: what made it and what it held. */
export class ScheduleVersionResponse {
  @ApiProperty({ example: 1, description: '1 is the disbursement’s schedule' }) version: number;
  @ApiProperty({ description: 'Whether it is the schedule in force' }) inForce: boolean;
  @ApiProperty({ format: 'uuid', description: 'The ledger transaction that made it' }) transactionId: string;
  @ApiProperty({ enum: TRANSACTION_KINDS }) kind: string;
  @ApiProperty({ example: 'Disbursement' }) kindName: string;
  @ApiProperty({ format: 'date', description: 'From when it applies' }) valueDate: string;
  @ApiProperty({ example: 12 }) instalments: number;
  @ApiProperty({ type: String, format: 'date', nullable: true }) firstDueDate: string | null;
  @ApiProperty({ type: String, format: 'date', nullable: true }) maturityDate: string | null;
  @ApiProperty({ example: 1000000, description: 'Principal of its instalments, minor units' })
  principal: number;
  @ApiProperty({ example: 134720, description: 'Interest of its instalments, minor units' }) interest: number;
  @ApiProperty({ example: 0 }) fees: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

/** DisburseLoan's answer: the transaction, the loan now active and its schedule. */
export class DisbursementResponse {
  @ApiProperty({ format: 'uuid' }) transactionId: string;
  @ApiProperty({ type: LoanResponse }) loan: LoanResponse;
  @ApiProperty({ type: [InstalmentResponse] }) schedule: InstalmentResponse[];
}

/** WriteOffLoan's answer. */
export class WriteOffResponse {
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'Null when nothing was owed' })
  transactionId: string | null;
  @ApiProperty({ example: 922107, description: 'What was taken off the books, minor units' }) amount: number;
  @ApiProperty({ type: LoanResponse }) loan: LoanResponse;
}
