import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  ForeignKey,
  Index,
  PrimaryGeneratedColumn,
  Unique,
} from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';
import { bigintNumber } from '../../common/columns';
import { LedgerTransaction } from '../ledger/ledger-transaction.entity';
import { Loan } from '../loan.entity';

/**
 * One instalment of a loan's schedule (docs/lending/loans.md, "Schedule"). Rows are never changed
 * except for `superseded_by`: a schedule change (an early repayment, later a restructuring or a
 * holiday) marks the rows it replaces with its ledger transaction and adds the new ones
 * (`created_by`), and its reversal undoes exactly that. The schedule in force is the rows not
 * superseded; what was paid on each comes from the ledger lines that name it.
 */
@Entity({ name: 'loan_instalments' })
@Unique('loan_instalments_organization_id_id_key', ['organizationId', 'id'])
@ForeignKey(() => Loan, ['organizationId', 'loanId'], ['organizationId', 'id'], {
  name: 'loan_instalments_loan_fkey',
})
@ForeignKey(() => LedgerTransaction, ['organizationId', 'createdBy'], ['organizationId', 'id'], {
  name: 'loan_instalments_created_by_fkey',
})
@ForeignKey(() => LedgerTransaction, ['organizationId', 'supersededBy'], ['organizationId', 'id'], {
  name: 'loan_instalments_superseded_by_fkey',
})
@Index('loan_instalments_current_key', ['loanId', 'number'], { unique: true, where: 'superseded_by IS NULL' })
@Index('loan_instalments_loan_due_idx', ['organizationId', 'loanId', 'dueDate'])
@Check(
  'loan_instalments_amounts_check',
  'principal >= 0 AND interest >= 0 AND fees >= 0 AND balance_after >= 0',
)
@Check('loan_instalments_total_check', 'total = principal + interest + fees')
@Check('loan_instalments_dates_check', 'period_start < due_date')
export class LoanInstalment {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'loan_instalments_organization_id_fkey' })
  organizationId: OrganizationId;
  @Column({ name: 'loan_id', type: 'uuid' }) loanId: string;
  @Column({ type: 'integer' }) number: number;
  @Column({ name: 'period_start', type: 'date' }) periodStart: string;
  @Column({ name: 'due_date', type: 'date' }) dueDate: string;
  @Column({ type: 'bigint', transformer: bigintNumber }) principal: number;
  @Column({ type: 'bigint', transformer: bigintNumber }) interest: number;
  @Column({ type: 'bigint', transformer: bigintNumber }) fees: number;
  @Column({ type: 'bigint', transformer: bigintNumber }) total: number;
  /** Principal outstanding once this instalment is paid. */
  @Column({ name: 'balance_after', type: 'bigint', transformer: bigintNumber }) balanceAfter: number;
  /** The ledger transaction whose schedule this row belongs to (the disbursement, or a change). */
  @Column({ name: 'created_by', type: 'uuid' }) createdBy: string;
  /** The ledger transaction that replaced the row (null: in force). */
  @Column({ name: 'superseded_by', type: 'uuid', nullable: true }) supersededBy: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
