import { Column, Entity, ForeignKey, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';
import { bigintNumber } from '../../common/columns';
import { Loan } from '../loan.entity';

/**
 * How far a loan's accruals have gone (docs/lending/loans.md, "Accruals"), written in the transaction
 * of the postings under the loan's row lock: a run reads it after taking the lock, so a day is never
 * processed twice. A day has two steps: its start (debt due before it moves to overdue, the overdue
 * is reported, a period that ended is trued up) and its end (its interest and penalty).
 */
@Entity({ name: 'loan_accrual_states' })
@ForeignKey(() => Loan, ['organizationId', 'loanId'], ['organizationId', 'id'], {
  name: 'loan_accrual_states_loan_fkey',
})
export class LoanAccrualState {
  @PrimaryColumn({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'loan_accrual_states_organization_id_fkey' })
  organizationId: OrganizationId;
  @PrimaryColumn({ name: 'loan_id', type: 'uuid' }) loanId: string;
  /** The last day whose start step ran. */
  @Column({ name: 'started_through', type: 'date' }) startedThrough: string;
  /** The last day whose interest and penalty were accrued. */
  @Column({ name: 'accrued_through', type: 'date' }) accruedThrough: string;
  /** The instalment whose period the last interest day belonged to. */
  @Column({ name: 'interest_instalment_id', type: 'uuid', nullable: true }) interestInstalmentId:
    string | null;
  /** Exact interest accrued in that period so far (its posts add up to its rounding). */
  @Column({ name: 'interest_cumulative', type: 'numeric', default: 0 }) interestCumulative: string;
  /** Exact penalty accrued over the loan's life. */
  @Column({ name: 'penalty_cumulative', type: 'numeric', default: 0 }) penaltyCumulative: string;
  /** First day of the current run of days with the same past-due base (30/360-exact penalties). */
  @Column({ name: 'penalty_run_start', type: 'date', nullable: true }) penaltyRunStart: string | null;
  @Column({ name: 'penalty_run_base', type: 'bigint', default: 0, transformer: bigintNumber })
  penaltyRunBase: number;
  /** The oldest unpaid due date of the overdue the bureau was told of (null: not overdue). */
  @Column({ name: 'overdue_since', type: 'date', nullable: true }) overdueSince: string | null;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
