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
import { bigintNumber, sqlIn } from '../../common/columns';
import { CONSENT_TYPES, type ConsentType } from '../../customers/consents/consent-rules';
import {
  DAY_COUNTS,
  FREQUENCIES,
  INTEREST_METHODS,
  ROUNDINGS,
  SCHEDULE_TYPES,
  rateText,
} from '../loan-terms';
import type { DayCount, DebtComponent, Frequency, InterestMethod, Rounding, ScheduleType } from '../math';

/**
 * A loan product of the organization (docs/lending/loans.md, "Products"): the limits and terms a loan
 * is made on. A loan copies the terms when it is created, so changing a product never changes a
 * contract already signed. Rates are percent decimal strings, stored as numeric (never a float).
 */
@Entity({ name: 'loan_products' })
@Unique('loan_products_organization_id_id_key', ['organizationId', 'id'])
@Unique('loan_products_code_key', ['organizationId', 'code'])
@Index('loan_products_org_created_idx', ['organizationId', 'createdAt'])
@Check('loan_products_currency_check', "currency ~ '^[A-Z]{3}$'")
@Check('loan_products_amount_check', 'min_amount > 0 AND min_amount <= max_amount')
@Check('loan_products_term_check', 'min_term > 0 AND min_term <= max_term')
@Check(
  'loan_products_rates_check',
  'annual_rate >= 0 AND penalty_annual_rate >= 0 AND origination_fee_percent >= 0 AND origination_fee >= 0',
)
@Check(
  'loan_products_grace_check',
  'grace_interest_only >= 0 AND grace_principal >= 0 AND penalty_grace_days >= 0',
)
@Check('loan_products_frequency_check', sqlIn('frequency', FREQUENCIES))
@Check('loan_products_schedule_type_check', sqlIn('schedule_type', SCHEDULE_TYPES))
@Check('loan_products_day_count_check', sqlIn('day_count', DAY_COUNTS))
@Check('loan_products_rounding_check', sqlIn('rounding', ROUNDINGS))
@Check('loan_products_interest_method_check', sqlIn('interest_method', INTEREST_METHODS))
@Check('loan_products_allocation_order_check', 'cardinality(allocation_order) = 6')
@Check(
  'loan_products_required_consents_check',
  `required_consents <@ ARRAY[${CONSENT_TYPES.map((t) => `'${t}'`).join(', ')}]::text[]`,
)
export class LoanProduct {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'loan_products_organization_id_fkey' })
  organizationId: OrganizationId;
  @Column({ type: 'text' }) code: string;
  @Column({ type: 'text' }) name: string;
  @Column({ type: 'text' }) currency: string;
  @Column({ name: 'min_amount', type: 'bigint', transformer: bigintNumber }) minAmount: number;
  @Column({ name: 'max_amount', type: 'bigint', transformer: bigintNumber }) maxAmount: number;
  /** Number of instalments (periods of `frequency`). */
  @Column({ name: 'min_term', type: 'integer' }) minTerm: number;
  @Column({ name: 'max_term', type: 'integer' }) maxTerm: number;
  @Column({ name: 'annual_rate', type: 'numeric', precision: 14, scale: 10, transformer: rateText })
  annualRate: string;
  @Column({ type: 'text' }) frequency: Frequency;
  @Column({ name: 'schedule_type', type: 'text' }) scheduleType: ScheduleType;
  @Column({ name: 'day_count', type: 'text' }) dayCount: DayCount;
  /** How an annuity bills a regular period's interest (docs/lending/loan-math.md, "Interest method"). */
  @Column({ name: 'interest_method', type: 'text', default: 'periodic' }) interestMethod: InterestMethod;
  @Column({ name: 'grace_interest_only', type: 'integer', default: 0 }) graceInterestOnly: number;
  @Column({ name: 'grace_principal', type: 'integer', default: 0 }) gracePrincipal: number;
  /** Fixed part of the origination fee, minor units. */
  @Column({ name: 'origination_fee', type: 'bigint', default: 0, transformer: bigintNumber })
  originationFee: number;
  /** Percentage part of the origination fee, of the loan amount. */
  @Column({
    name: 'origination_fee_percent',
    type: 'numeric',
    precision: 14,
    scale: 10,
    default: 0,
    transformer: rateText,
  })
  originationFeePercent: string;
  @Column({
    name: 'penalty_annual_rate',
    type: 'numeric',
    precision: 14,
    scale: 10,
    default: 0,
    transformer: rateText,
  })
  penaltyAnnualRate: string;
  @Column({ name: 'penalty_grace_days', type: 'integer', default: 0 }) penaltyGraceDays: number;
  /** All six components, in order: an order named in part is stored completed (loan-math.md). */
  @Column({ name: 'allocation_order', type: 'text', array: true }) allocationOrder: DebtComponent[];
  @Column({ type: 'text' }) rounding: Rounding;
  /** Consent types the customer must have in force for the steps that need them (customer-standing.ts). */
  @Column({ name: 'required_consents', type: 'text', array: true, default: () => "'{}'" })
  requiredConsents: ConsentType[];
  @Column({ type: 'boolean', default: true }) active: boolean;
  @Column({ type: 'integer', default: 1 }) version: number;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
