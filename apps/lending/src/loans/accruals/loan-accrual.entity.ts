import { Check, Column, CreateDateColumn, Entity, ForeignKey, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';
import { bigintNumber, sqlIn } from '../../common/columns';
import { LedgerTransaction } from '../ledger/ledger-transaction.entity';
import { Loan } from '../loan.entity';

/**
 * What the accruals job posts for a loan and a day (docs/lending/loans.md, "Accruals"):
 * - `overdue`: the start of the day, unpaid amounts of instalments due before it moved to overdue;
 * - `interest_adjustment`: at a due date, the period's day-count accruals trued up to the interest the
 *   schedule bills for it;
 * - `interest`, `penalty`: the day's interest, and its penalty on what is past due.
 */
export const ACCRUAL_KINDS = ['overdue', 'interest_adjustment', 'interest', 'penalty'] as const;
export type AccrualKind = (typeof ACCRUAL_KINDS)[number];

/**
 * One posting of the accruals job, with the ledger transaction it made. The unique (organization,
 * loan, day, kind) makes a day's posting happen at most once whatever runs it (the job on any replica,
 * RunAccruals, or an operation catching its loan up first). Append-only for the tenant role.
 */
@Entity({ name: 'loan_accruals' })
@Unique('loan_accruals_day_key', ['organizationId', 'loanId', 'accrualDate', 'kind'])
@ForeignKey(() => Loan, ['organizationId', 'loanId'], ['organizationId', 'id'], {
  name: 'loan_accruals_loan_fkey',
})
@ForeignKey(() => LedgerTransaction, ['organizationId', 'transactionId'], ['organizationId', 'id'], {
  name: 'loan_accruals_transaction_fkey',
})
@Check('loan_accruals_kind_check', sqlIn('kind', ACCRUAL_KINDS))
@Check('loan_accruals_amount_check', 'amount <> 0')
export class LoanAccrual {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'loan_accruals_organization_id_fkey' })
  organizationId: OrganizationId;
  @Column({ name: 'loan_id', type: 'uuid' }) loanId: string;
  /** `YYYY-MM-DD`: the day accrued (interest, penalty), or whose start moved debt to overdue. */
  @Column({ name: 'accrual_date', type: 'date' }) accrualDate: string;
  @Column({ type: 'text' }) kind: AccrualKind;
  @Column({ name: 'transaction_id', type: 'uuid' }) transactionId: string;
  /** Minor units posted; an interest adjustment that takes income back is negative. */
  @Column({ type: 'bigint', transformer: bigintNumber }) amount: number;
  /** The principal (interest) or past-due debt (penalty) the day was computed on. */
  @Column({ type: 'bigint', nullable: true, transformer: bigintNumber }) base: number | null;
  /** The day's exact amount (12 decimal places of a minor unit). */
  @Column({ type: 'numeric', nullable: true }) exact: string | null;
  /** The exact cumulative amount after the day, whose rounding the posts always add up to. */
  @Column({ type: 'numeric', nullable: true }) cumulative: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
