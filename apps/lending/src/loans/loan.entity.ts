import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  ForeignKey,
  Index,
  PrimaryGeneratedColumn,
  Unique,
  UpdateDateColumn,
} from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';
import { bigintNumber, sqlIn } from '../common/columns';
import { Customer } from '../customers/customer.entity';
import { DAY_COUNTS, FREQUENCIES, INTEREST_METHODS, ROUNDINGS, SCHEDULE_TYPES, rateText } from './loan-terms';
import { LOAN_STATUSES, type LoanStatus } from './loan-workflow';
import type { DayCount, DebtComponent, Frequency, InterestMethod, Rounding, ScheduleType } from './math';
import { LoanProduct } from './products/loan-product.entity';

/**
 * A loan contract (docs/lending/loans.md): made from an approved application on a product, whose terms
 * it copies (a product changed later does not change the contract). Its money lives in the ledger:
 * the row holds the terms and the status, never a balance.
 */
@Entity({ name: 'loans' })
@Unique('loans_organization_id_id_key', ['organizationId', 'id'])
@Unique('loans_application_key', ['organizationId', 'applicationId'])
// Named by its table, not its class: loans/ imports nothing of applications/ (origination/ joins them).
@ForeignKey('applications', ['organizationId', 'applicationId'], ['organizationId', 'id'], {
  name: 'loans_application_fkey',
})
@ForeignKey(() => Customer, ['organizationId', 'customerId'], ['organizationId', 'id'], {
  name: 'loans_customer_fkey',
})
@ForeignKey(() => LoanProduct, ['organizationId', 'productId'], ['organizationId', 'id'], {
  name: 'loans_product_fkey',
})
@Index('loans_org_created_idx', ['organizationId', 'createdAt'])
@Index('loans_org_status_created_idx', ['organizationId', 'status', 'createdAt'])
@Index('loans_org_customer_created_idx', ['organizationId', 'customerId', 'createdAt'])
@Check('loans_status_check', sqlIn('status', LOAN_STATUSES))
@Check('loans_currency_check', "currency ~ '^[A-Z]{3}$'")
@Check('loans_terms_check', 'principal > 0 AND term_count > 0 AND origination_fee >= 0')
@Check('loans_frequency_check', sqlIn('frequency', FREQUENCIES))
@Check('loans_schedule_type_check', sqlIn('schedule_type', SCHEDULE_TYPES))
@Check('loans_day_count_check', sqlIn('day_count', DAY_COUNTS))
@Check('loans_rounding_check', sqlIn('rounding', ROUNDINGS))
@Check('loans_interest_method_check', sqlIn('interest_method', INTEREST_METHODS))
export class Loan {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'loans_organization_id_fkey' })
  organizationId: OrganizationId;
  @Column({ name: 'application_id', type: 'uuid' }) applicationId: string;
  @Column({ name: 'customer_id', type: 'uuid' }) customerId: string;
  @Column({ name: 'product_id', type: 'uuid' }) productId: string;
  @Column({ type: 'text' }) status: LoanStatus;
  @Column({ type: 'text' }) currency: string;
  /** The amount lent, minor units. */
  @Column({ type: 'bigint', transformer: bigintNumber }) principal: number;
  /** Number of instalments of the original schedule. */
  @Column({ name: 'term_count', type: 'integer' }) termCount: number;
  @Column({ name: 'annual_rate', type: 'numeric', precision: 14, scale: 10, transformer: rateText })
  annualRate: string;
  @Column({ type: 'text' }) frequency: Frequency;
  @Column({ name: 'schedule_type', type: 'text' }) scheduleType: ScheduleType;
  @Column({ name: 'day_count', type: 'text' }) dayCount: DayCount;
  /** Pass it to generateSchedule and reschedule with the other terms (loan-math.md, "Interest method"). */
  @Column({ name: 'interest_method', type: 'text', default: 'periodic' }) interestMethod: InterestMethod;
  @Column({ name: 'grace_interest_only', type: 'integer' }) graceInterestOnly: number;
  @Column({ name: 'grace_principal', type: 'integer' }) gracePrincipal: number;
  /** The origination fee in minor units (the product's fixed part plus its percentage of `principal`). */
  @Column({ name: 'origination_fee', type: 'bigint', transformer: bigintNumber }) originationFee: number;
  @Column({
    name: 'penalty_annual_rate',
    type: 'numeric',
    precision: 14,
    scale: 10,
    transformer: rateText,
  })
  penaltyAnnualRate: string;
  @Column({ name: 'penalty_grace_days', type: 'integer' }) penaltyGraceDays: number;
  @Column({ name: 'allocation_order', type: 'text', array: true }) allocationOrder: DebtComponent[];
  @Column({ type: 'text' }) rounding: Rounding;
  /** `YYYY-MM-DD`: set by DisburseLoan. */
  @Column({ name: 'disbursed_on', type: 'date', nullable: true }) disbursedOn: string | null;
  /** `YYYY-MM-DD`: the value date of the payment that closed it (cleared if that payment is reversed). */
  @Column({ name: 'closed_on', type: 'date', nullable: true }) closedOn: string | null;
  @Column({ name: 'created_by_key_id', type: 'text', nullable: true }) createdByKeyId: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
