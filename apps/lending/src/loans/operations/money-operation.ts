import type { Language } from '@platform/i18n';
import type { Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import type { LoanEvent } from '../events/event-payloads';
import type { LoanFact } from '../events/loan-facts';
import type { TransactionKind } from '../ledger/chart-of-accounts';
import type { LedgerTransaction } from '../ledger/ledger-transaction.entity';
import type { LoanPosition } from '../ledger/loan-book';
import type { PostingLine } from '../ledger/posting';
import type { Loan } from '../loan.entity';
import type { LoanAction, LoanStatus } from '../loan-workflow';
import type { LoanChange } from '../loans.repository';
import type { Instalment } from '../math';

/** What an operation runs in: the loan, locked for it, and who asked. */
export interface OperationContext {
  organizationId: OrganizationId;
  /** The API key that asked (null in a preview). */
  keyId: string | null;
  /** The request's Idempotency-Key (null in a preview, which books nothing). */
  idempotencyKey: string | null;
  lang: Language;
  tx: Tx;
  /** Locked (`FOR UPDATE`) for the whole operation; the pipeline keeps it current after a move. */
  loan: Loan;
  /** The UTC day the operation runs on. */
  today: string;
}

/**
 * The status rule an operation states before anything runs: the move it makes (checked against the
 * loan's transition table, 409 LOAN_TRANSITION_NOT_ALLOWED), an active loan (409 LOAN_NOT_ACTIVE), or
 * none (a reversal checks what it reverses instead).
 */
export type Admission =
  { kind: 'move'; to: LoanStatus; action: LoanAction } | { kind: 'active' } | { kind: 'any' };

/** The one ledger transaction an operation books. */
export interface PlannedPosting {
  kind: TransactionKind;
  amount: number;
  valueDate: string;
  reversesId?: string;
  details: Record<string, unknown>;
  lines: PostingLine[];
}

/** How an operation changes the schedule in force; every change records a new schedule version. */
export type PlannedSchedule =
  /** The first schedule (a disbursement). */
  | { kind: 'first'; rows: Instalment[] }
  /** Instalments superseded by new ones (an early repayment, a restructuring, a holiday). */
  | { kind: 'replace'; superseded: string[]; rows: Instalment[] }
  /** The schedule a transaction replaced, brought back (its reversal). */
  | { kind: 'restore'; changedBy: string };

/** Everything an operation decides, computed from the position without touching the database. */
export interface MoneyPlan {
  posting: PlannedPosting | null;
  schedule?: PlannedSchedule | null;
  /** New contract terms (a restructuring's rate or schedule type). */
  terms?: Omit<LoanChange, 'status'> | null;
  /** The status move the operation makes, checked against the loan's table once more when made. */
  move?: { to: LoanStatus; action: LoanAction; also?: Omit<LoanChange, 'status'> } | null;
}

/** An operation once the pipeline has booked its plan. */
export interface Booked<P extends MoneyPlan> {
  ctx: OperationContext;
  plan: P;
  transaction: LedgerTransaction | null;
  before: LoanPosition;
  after: LoanPosition;
  /** The schedule version recorded (null when the schedule did not change). */
  version: number | null;
}

/**
 * One money operation, as the pipeline (MoneyPipeline) runs it. It supplies only what is its own:
 * the status rule, the day accruals are brought up to, the reads its plan needs, the pure plan, its
 * events and its answer. Idempotency, the lock, the catch-up, the posting, the schedule, the status
 * move, the events' writing and the stored answer are the pipeline's.
 */
export interface MoneyOperation<I, P extends MoneyPlan, R> {
  readonly loanId: string;
  readonly admission: Admission;
  /** Checks beyond the loan's own status that need the database (e.g. the customer's standing). */
  admit?(ctx: OperationContext): Promise<void>;
  /** Accruals are brought up to this day first (null: none). */
  catchUpTo(ctx: OperationContext): string | null;
  /** The reads the plan needs beyond the position (inside the operation's transaction). */
  gather(ctx: OperationContext, before: LoanPosition): Promise<I>;
  /** The plan: pure, from the position and what was gathered. Throws a coded error to refuse. */
  plan(ctx: OperationContext, before: LoanPosition, input: I): P;
  /** The events the booked operation announces: a fact (turned into its events) or the events. */
  events(booked: Booked<P>): LoanFact | LoanEvent[];
  answer(booked: Booked<P>): R;
}

/** The transaction of an operation whose plan always posts one (a programming error otherwise). */
export function postedOf(booked: Booked<MoneyPlan>): LedgerTransaction {
  if (!booked.transaction) throw new Error('the operation posted no ledger transaction');
  return booked.transaction;
}
