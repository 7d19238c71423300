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
import { Customer } from '../customer.entity';
import { sqlIn } from '../../common/columns';

export const BANK_ACCOUNT_FORMATS = ['iban', 'local'] as const;
export type BankAccountFormat = (typeof BANK_ACCOUNT_FORMATS)[number];

/**
 * A customer's bank account for disbursements and repayments: an IBAN, or a local account number with
 * its bank code (bank-account-rules.ts). At most one primary account per customer.
 */
@Entity({ name: 'customer_bank_accounts' })
@ForeignKey(() => Customer, ['organizationId', 'customerId'], ['organizationId', 'id'], {
  name: 'customer_bank_accounts_customer_fkey',
})
@Unique('customer_bank_accounts_account_key', ['organizationId', 'customerId', 'accountKey'])
@Index('customer_bank_accounts_primary_key', ['organizationId', 'customerId'], {
  unique: true,
  where: 'is_primary',
})
@Check('customer_bank_accounts_format_check', sqlIn('format', BANK_ACCOUNT_FORMATS))
@Check(
  'customer_bank_accounts_shape_check',
  `(format = 'iban' AND iban IS NOT NULL AND account_number IS NULL) OR (format = 'local' AND iban IS NULL AND account_number IS NOT NULL AND bank_code IS NOT NULL)`,
)
@Check('customer_bank_accounts_currency_check', `currency ~ '^[A-Z]{3}$'`)
export class CustomerBankAccount {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'customer_bank_accounts_organization_id_fkey' })
  organizationId: OrganizationId;
  @Column({ name: 'customer_id', type: 'uuid' }) customerId: string;
  @Column({ type: 'text' }) format: BankAccountFormat;
  @Column({ type: 'text', nullable: true }) iban: string | null;
  @Column({ name: 'account_number', type: 'text', nullable: true }) accountNumber: string | null;
  @Column({ name: 'bank_code', type: 'text', nullable: true }) bankCode: string | null;
  @Column({ type: 'text', nullable: true }) bic: string | null;
  @Column({ name: 'bank_name', type: 'text', nullable: true }) bankName: string | null;
  @Column({ type: 'text' }) country: string;
  @Column({ type: 'text' }) currency: string;
  @Column({ name: 'holder_name', type: 'text' }) holderName: string;
  /** The rule that accepted it: `IBAN`, `RU_ACCOUNT_BIK`, ... */
  @Column({ type: 'text' }) scheme: string;
  /** The IBAN, or `<bank code>/<account>`: one account once per customer. */
  @Column({ name: 'account_key', type: 'text' }) accountKey: string;
  @Column({ name: 'is_primary', type: 'boolean', default: false }) isPrimary: boolean;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
