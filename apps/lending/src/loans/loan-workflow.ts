/**
 * The loan contract's statuses and the one table of allowed moves (docs/lending/loans.md,
 * "Statuses"). Pure, so the dictionary (GetLoanStatuses) is read from the table the services enforce.
 */

export const LOAN_STATUSES = ['created', 'active', 'closed', 'written_off', 'cancelled'] as const;
export type LoanStatus = (typeof LOAN_STATUSES)[number];

/** The actions that move a loan; each is a POST route of the same name. */
export const LOAN_ACTIONS = [
  'CreateLoan',
  'DisburseLoan',
  'CancelLoan',
  'MakePayment',
  'ReversePayment',
  'WriteOffLoan',
] as const;
export type LoanAction = (typeof LOAN_ACTIONS)[number];

export interface LoanTransition {
  from: LoanStatus;
  to: LoanStatus;
  action: LoanAction;
}

/** Every allowed move; anything else is LOAN_TRANSITION_NOT_ALLOWED (409). */
export const LOAN_TRANSITIONS: readonly LoanTransition[] = [
  { from: 'created', to: 'active', action: 'DisburseLoan' },
  { from: 'created', to: 'cancelled', action: 'CancelLoan' },
  // The payment that leaves nothing owed closes the loan; reversing that payment reopens it.
  { from: 'active', to: 'closed', action: 'MakePayment' },
  { from: 'closed', to: 'active', action: 'ReversePayment' },
  { from: 'active', to: 'written_off', action: 'WriteOffLoan' },
];

export const TERMINAL_LOAN_STATUSES: readonly LoanStatus[] = LOAN_STATUSES.filter(
  (s) => !LOAN_TRANSITIONS.some((t) => t.from === s),
);

export function loanTransitionsFrom(from: string): LoanTransition[] {
  return LOAN_TRANSITIONS.filter((t) => t.from === from);
}

export function findLoanTransition(from: string, to: LoanStatus, action: LoanAction): LoanTransition | null {
  return LOAN_TRANSITIONS.find((t) => t.from === from && t.to === to && t.action === action) ?? null;
}
