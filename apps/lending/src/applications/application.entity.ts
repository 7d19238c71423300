import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  ForeignKey,
  Unique,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';
import { Customer } from '../customers/customer.entity';
import { bigintNumber, sqlIn } from '../common/columns';
import { APPLICATION_CHANNELS, type ApplicationChannel } from './application-channels';
import { APPLICATION_STATUSES } from './workflow/application-workflow';

/**
 * A loan application (docs/lending/applications.md). Rows from before the workflow (the foundation's
 * shell) have no customer or product: those columns are nullable, every new application fills them.
 */
@Entity({ name: 'applications' })
@Unique('applications_organization_id_id_key', ['organizationId', 'id'])
@ForeignKey(() => Customer, ['organizationId', 'customerId'], ['organizationId', 'id'], {
  name: 'applications_customer_fkey',
})
@Index('applications_org_created_idx', ['organizationId', 'createdAt'])
@Index('applications_org_status_created_idx', ['organizationId', 'status', 'createdAt'])
@Index('applications_org_customer_created_idx', ['organizationId', 'customerId', 'createdAt'])
@Check('applications_status_check', sqlIn('status', APPLICATION_STATUSES))
@Check('applications_channel_check', sqlIn('channel', APPLICATION_CHANNELS))
@Check('applications_request_check', 'amount > 0 AND term_months > 0')
@Check('applications_currency_check', "currency ~ '^[A-Z]{3}$'")
@Check('applications_income_check', 'monthly_income >= 0 AND monthly_expenses >= 0')
export class LoanApplication {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'applications_organization_id_fkey' })
  organizationId: OrganizationId;
  @Column({ type: 'text' }) status: string;
  @Column({ name: 'customer_id', type: 'uuid', nullable: true }) customerId: string | null;
  @Column({ name: 'product_code', type: 'text', nullable: true }) productCode: string | null;
  /** The requested amount in minor units of `currency`. */
  @Column({ type: 'bigint', nullable: true, transformer: bigintNumber }) amount: number | null;
  @Column({ type: 'text', nullable: true }) currency: string | null;
  @Column({ name: 'term_months', type: 'integer', nullable: true }) termMonths: number | null;
  @Column({ type: 'text', nullable: true }) purpose: string | null;
  @Column({ type: 'text', nullable: true }) channel: ApplicationChannel | null;
  /** The applicant's national id as declared on the form: what the checks run against. */
  @Column({ name: 'national_id', type: 'text', nullable: true }) nationalId: string | null;
  @Column({ name: 'monthly_income', type: 'bigint', nullable: true, transformer: bigintNumber })
  monthlyIncome: number | null;
  @Column({ name: 'monthly_expenses', type: 'bigint', nullable: true, transformer: bigintNumber })
  monthlyExpenses: number | null;
  /** The key that created the application. */
  @Column({ name: 'created_by_key_id', type: 'text', nullable: true }) createdByKeyId: string | null;
  /** When the running check run claimed the checks (a claim older than the lease may be taken over). */
  @Column({ name: 'checks_started_at', type: 'timestamptz', nullable: true }) checksStartedAt: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
