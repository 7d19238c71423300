/**
 * The chart of accounts of the loan ledger (docs/lending/loans.md, "Ledger"). Every line names one of
 * these and the loan it belongs to, so each loan's balances are sums over its lines. Balance sign:
 * assets and expenses are debit - credit, liabilities and income credit - debit.
 */
export const LEDGER_ACCOUNTS = [
  'cash',
  'loan_principal',
  'overdue_principal',
  'interest_receivable',
  'overdue_interest',
  'penalty_receivable',
  'fee_receivable',
  'interest_advance',
  'overpayment',
  'interest_income',
  'penalty_income',
  'fee_income',
  'credit_losses',
] as const;
export type LedgerAccount = (typeof LEDGER_ACCOUNTS)[number];

export type AccountType = 'asset' | 'liability' | 'income' | 'expense';

export const ACCOUNT_TYPES: Readonly<Record<LedgerAccount, AccountType>> = {
  /** The lender's settlement money for the loan: out at disbursement, in with payments. */
  cash: 'asset',
  /** Principal the borrower owes and is not yet past its due date. */
  loan_principal: 'asset',
  /** Principal past its due date (moved here by the accruals job the day after the due date). */
  overdue_principal: 'asset',
  /** Interest earned (accrued) and not yet paid, not past due. */
  interest_receivable: 'asset',
  /** Interest of instalments past their due date (moved here by the accruals job). */
  overdue_interest: 'asset',
  /** Overdue penalties accrued and not yet paid. */
  penalty_receivable: 'asset',
  /** Fees charged and not yet paid. */
  fee_receivable: 'asset',
  /** Interest paid before it was accrued (an instalment paid ahead): owed back as service until earned. */
  interest_advance: 'liability',
  /** Money received beyond every debt: the borrower's, until applied or refunded. */
  overpayment: 'liability',
  interest_income: 'income',
  penalty_income: 'income',
  fee_income: 'income',
  /** What a write-off takes off the books. */
  credit_losses: 'expense',
};

/** +1 when the account's balance grows with debits, -1 when with credits. */
export const debitSign = (account: LedgerAccount): 1 | -1 =>
  ACCOUNT_TYPES[account] === 'asset' || ACCOUNT_TYPES[account] === 'expense' ? 1 : -1;

/** What a ledger transaction is (one per money operation). */
export const TRANSACTION_KINDS = [
  'disbursement',
  'repayment',
  'reversal',
  'write_off',
  'interest_accrual',
  'penalty_accrual',
  'overdue_transfer',
  'restructuring',
  'payment_holiday',
] as const;
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];

/** What the accruals job posts (never a client's operation; no Idempotency-Key, keyed by loan and day). */
export const JOB_KINDS: readonly TransactionKind[] = [
  'interest_accrual',
  'penalty_accrual',
  'overdue_transfer',
];

/**
 * Schedule changes that move no money: a ledger transaction without lines (the database's balance check
 * lets these kinds alone have none), so the change takes its place in the loan's order of operations
 * and names the instalments it replaced and added.
 */
export const SCHEDULE_CHANGE_KINDS: readonly TransactionKind[] = ['restructuring', 'payment_holiday'];
