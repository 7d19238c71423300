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
import { bigintNumber, sqlIn } from '../../common/columns';
import { Loan } from '../loan.entity';
import { TRANSACTION_KINDS, type TransactionKind } from './chart-of-accounts';

/**
 * One money operation of a loan (docs/lending/loans.md, "Ledger"): a disbursement, a payment, a
 * reversal, a write-off, an accrual. Its lines (ledger_lines) always balance, which a deferred trigger
 * checks at commit. Append-only: the tenant role may insert, never change or delete; a mistake is
 * undone by a reversal, which names what it reverses (at most once).
 */
@Entity({ name: 'ledger_transactions' })
@Unique('ledger_transactions_organization_id_id_key', ['organizationId', 'id'])
@Unique('ledger_transactions_reverses_key', ['organizationId', 'reversesId'])
@ForeignKey(() => Loan, ['organizationId', 'loanId'], ['organizationId', 'id'], {
  name: 'ledger_transactions_loan_fkey',
})
@ForeignKey(() => LedgerTransaction, ['organizationId', 'reversesId'], ['organizationId', 'id'], {
  name: 'ledger_transactions_reverses_fkey',
})
@Index('ledger_transactions_loan_seq_idx', ['organizationId', 'loanId', 'seq'], { unique: true })
@Check('ledger_transactions_kind_check', sqlIn('kind', TRANSACTION_KINDS))
@Check('ledger_transactions_amount_check', 'amount >= 0')
@Check('ledger_transactions_reversal_check', "(kind = 'reversal') = (reverses_id IS NOT NULL)")
export class LedgerTransaction {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'ledger_transactions_organization_id_fkey' })
  organizationId: OrganizationId;
  @Column({ name: 'loan_id', type: 'uuid' }) loanId: string;
  /** 1, 2, ... per loan, in the order the operations were booked (under the loan's row lock). */
  @Column({ type: 'integer' }) seq: number;
  @Column({ type: 'text' }) kind: TransactionKind;
  /** The operation's amount (a payment's amount, the principal disbursed), minor units. */
  @Column({ type: 'bigint', transformer: bigintNumber }) amount: number;
  /** `YYYY-MM-DD`: the day the money moved (a payment's value date). */
  @Column({ name: 'value_date', type: 'date' }) valueDate: string;
  /** The reversed transaction, on a reversal. */
  @Column({ name: 'reverses_id', type: 'uuid', nullable: true }) reversesId: string | null;
  /** The Idempotency-Key the operation came with (null for the scheduled jobs' postings). */
  @Column({ name: 'idempotency_key', type: 'text', nullable: true }) idempotencyKey: string | null;
  /** What the operation decided: a payment's allocation and rule, a schedule change, a reason. */
  @Column({ type: 'jsonb' }) details: Record<string, unknown>;
  @Column({ name: 'key_id', type: 'text', nullable: true }) keyId: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
