import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';
import { bigintNumber, sqlIn } from '../../common/columns';
import { Loan } from '../loan.entity';
import { DEBT_COMPONENTS } from '../loan-terms';
import { LoanInstalment } from '../schedule/loan-instalment.entity';
import { LEDGER_ACCOUNTS, type LedgerAccount } from './chart-of-accounts';
import { LedgerTransaction } from './ledger-transaction.entity';

/**
 * One line of a ledger transaction: an account, and a debit or a credit (exactly one of them positive)
 * in minor units. `component` and `instalment_id` say which debt a payment line settled, so an
 * instalment's paid amounts are sums over its lines too. Append-only, like its transaction.
 */
@Entity({ name: 'ledger_lines' })
@ForeignKey(() => LedgerTransaction, ['organizationId', 'transactionId'], ['organizationId', 'id'], {
  name: 'ledger_lines_transaction_fkey',
})
@ForeignKey(() => Loan, ['organizationId', 'loanId'], ['organizationId', 'id'], {
  name: 'ledger_lines_loan_fkey',
})
@ForeignKey(() => LoanInstalment, ['organizationId', 'instalmentId'], ['organizationId', 'id'], {
  name: 'ledger_lines_instalment_fkey',
})
@Index('ledger_lines_transaction_idx', ['organizationId', 'transactionId'])
@Index('ledger_lines_loan_account_idx', ['organizationId', 'loanId', 'account'])
@Index('ledger_lines_instalment_idx', ['organizationId', 'instalmentId'], {
  where: 'instalment_id IS NOT NULL',
})
@Check('ledger_lines_account_check', sqlIn('account', LEDGER_ACCOUNTS))
@Check('ledger_lines_component_check', `component IS NULL OR ${sqlIn('component', DEBT_COMPONENTS)}`)
@Check('ledger_lines_side_check', 'debit >= 0 AND credit >= 0 AND (debit > 0) <> (credit > 0)')
export class LedgerLine {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'ledger_lines_organization_id_fkey' })
  organizationId: OrganizationId;
  @Column({ name: 'transaction_id', type: 'uuid' }) transactionId: string;
  @Column({ name: 'loan_id', type: 'uuid' }) loanId: string;
  @Column({ type: 'text' }) account: LedgerAccount;
  @Column({ type: 'bigint', default: 0, transformer: bigintNumber }) debit: number;
  @Column({ type: 'bigint', default: 0, transformer: bigintNumber }) credit: number;
  @Column({ type: 'text', nullable: true }) component: string | null;
  @Column({ name: 'instalment_id', type: 'uuid', nullable: true }) instalmentId: string | null;
}
