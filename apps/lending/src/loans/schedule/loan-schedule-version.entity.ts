import { Column, CreateDateColumn, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';
import { LedgerTransaction } from '../ledger/ledger-transaction.entity';
import { Loan } from '../loan.entity';

/**
 * One version of a loan's schedule (docs/lending/loans.md, "Schedule"): the instalments in force after
 * the transaction that made it (the disbursement, an early repayment, a reversal restoring a schedule,
 * a restructuring, a payment holiday). Instalment rows never change except for `superseded_by`, and a
 * reversal clears that again, so the rows alone do not say what was in force when; the versions do.
 * Append-only for the tenant role.
 */
@Entity({ name: 'loan_schedule_versions' })
@ForeignKey(() => Loan, ['organizationId', 'loanId'], ['organizationId', 'id'], {
  name: 'loan_schedule_versions_loan_fkey',
})
@ForeignKey(() => LedgerTransaction, ['organizationId', 'transactionId'], ['organizationId', 'id'], {
  name: 'loan_schedule_versions_transaction_fkey',
})
export class LoanScheduleVersion {
  @PrimaryColumn({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'loan_schedule_versions_organization_id_fkey' })
  organizationId: OrganizationId;
  @PrimaryColumn({ name: 'loan_id', type: 'uuid' }) loanId: string;
  /** 1 (the disbursement), 2, ... */
  @PrimaryColumn({ type: 'integer' }) version: number;
  @Column({ name: 'transaction_id', type: 'uuid' }) transactionId: string;
  /** The instalments in force, by number. */
  @Column({ name: 'instalment_ids', type: 'uuid', array: true }) instalmentIds: string[];
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
