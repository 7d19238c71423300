import type { AccountBalances } from '../ledger/balances';
import type { LedgerTransaction } from '../ledger/ledger-transaction.entity';
import type { PostingLine } from '../ledger/posting';
import type { Loan } from '../loan.entity';
import type { DebtComponent } from '../math';
import type { PaymentMode, PositionRow } from '../payments/payment-plan';

export const PAYMENT_CHANNELS = ['bank-transfer', 'card', 'cash-desk', 'direct-debit', 'other'] as const;
export type PaymentChannel = (typeof PAYMENT_CHANNELS)[number];
export const REVERSAL_REASONS = ['returned-by-bank', 'payer-dispute', 'booked-in-error'] as const;
export type ReversalReason = (typeof REVERSAL_REASONS)[number];
export const WRITE_OFF_REASONS = [
  'uncollectable',
  'statute-of-limitations',
  'bankruptcy-completed',
  'lender-decision',
] as const;
export type WriteOffReason = (typeof WRITE_OFF_REASONS)[number];

/**
 * What a loan operation did, as the operation knows it: LoanEvents turns each fact into the contract
 * events of the bureau and accounting topics (libs/messaging), in the operation's transaction.
 */
export type LoanFact =
  | {
      kind: 'disbursed';
      loan: Loan;
      transaction: LedgerTransaction;
      rows: PositionRow[];
      balances: AccountBalances;
    }
  | {
      kind: 'payment';
      loan: Loan;
      transaction: LedgerTransaction;
      mode: PaymentMode;
      /** How the money came (accounting's `channel`). */
      channel: PaymentChannel;
      parts: Record<DebtComponent, number>;
      order: DebtComponent[];
      rule: string;
      overpayment: number;
      lines: PostingLine[];
      rowsBefore: PositionRow[];
      rows: PositionRow[];
      balances: AccountBalances;
      scheduleChanged: boolean;
      closed: boolean;
    }
  | {
      kind: 'reversal';
      loan: Loan;
      transaction: LedgerTransaction;
      reversed: LedgerTransaction;
      reason: string | null;
      reasonCode: ReversalReason;
      /** The reversal's lines (the payment's, mirrored). */
      lines: PostingLine[];
      /** Interest moved back from advance to receivable with it (accrued since the payment). */
      reclassified: number;
      rows: PositionRow[];
      balances: AccountBalances;
      reopened: boolean;
    }
  | {
      kind: 'written_off';
      loan: Loan;
      transaction: LedgerTransaction | null;
      reason: string | null;
      reasonCode: WriteOffReason;
      rowsBefore: PositionRow[];
      rows: PositionRow[];
      balances: AccountBalances;
    }
  | { kind: 'cancelled'; loan: Loan; reason: string | null };
