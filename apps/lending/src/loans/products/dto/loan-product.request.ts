import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsBoolean, IsIn, IsISO4217CurrencyCode, IsString, IsUUID, Matches } from 'class-validator';
import { IntField, MaxChars, MinChars } from '@platform/envelope';
import { PRODUCT_CODE } from '../../../common/dto/product-code';
import { CONSENT_TYPES } from '../../../customers/consents/consent-rules';
import { OptionalField } from '../../../common/dto/optional-field';
import { MAX_MINOR_UNITS } from '../../../common/money-limits';
import {
  DAY_COUNTS,
  DEBT_COMPONENTS,
  FREQUENCIES,
  INTEREST_METHODS,
  RATE_PATTERN,
  ROUNDINGS,
  SCHEDULE_TYPES,
} from '../../loan-terms';
import { MAX_TERM_COUNT } from '../../math';

const RATE_HELP = 'percent a year as a decimal string ("24.5" is 24.5%), at most 10 decimals';
// A repeated or unknown component is the service's 422 (not a 400): the order is checked as a whole.
const ALLOCATION_ORDER_HELP =
  'The order a payment settles the debt components in: some or all of the six, each at most once; the ones left out follow in the default order (fees, penalties, overdueInterest, overduePrincipal, currentInterest, currentPrincipal), and the product answers the whole order. A repeated or unknown component is 422 LOAN_PRODUCT_INVALID, problem ALLOCATION_ORDER';
const INTEREST_METHOD_HELP =
  "How an annuity bills a regular period's interest: periodic (balance x rate / periods a year, whatever the days) or day-count (balance x rate x the period's year fraction under dayCount; the instalment stays the annuity payment from rate / periods a year and the last one takes the remaining balance). Differentiated and bullet schedules always bill by the day count";

/** The terms of a product; CreateLoanProduct requires the first group, the rest have defaults. */
export class CreateLoanProductRequest {
  @ApiProperty({ example: 'CASH_12', description: "The product's code, unique in the organization" })
  @IsString()
  @MinChars(1)
  @MaxChars(50)
  @Matches(PRODUCT_CODE)
  code: string;

  @ApiProperty({ example: 'Cash loan, up to 12 months' })
  @IsString()
  @MinChars(1)
  @MaxChars(200)
  name: string;

  @ApiProperty({ example: 'KZT', description: 'ISO 4217 currency the product lends' })
  @IsString()
  @IsISO4217CurrencyCode()
  currency: string;

  @ApiProperty({ example: 5000000, description: 'Smallest loan, minor units' })
  @IntField({ min: 1, max: MAX_MINOR_UNITS })
  minAmount: number;

  @ApiProperty({ example: 500000000, description: 'Largest loan, minor units' })
  @IntField({ min: 1, max: MAX_MINOR_UNITS })
  maxAmount: number;

  @ApiProperty({ example: 3, description: 'Fewest instalments (periods of `frequency`)' })
  @IntField({ min: 1, max: MAX_TERM_COUNT })
  minTerm: number;

  @ApiProperty({ example: 24, description: 'Most instalments' })
  @IntField({ min: 1, max: MAX_TERM_COUNT })
  maxTerm: number;

  @ApiProperty({ example: '24.5', description: `Nominal annual interest rate, ${RATE_HELP}` })
  @IsString()
  @Matches(RATE_PATTERN)
  annualRate: string;

  @ApiProperty({ enum: FREQUENCIES, example: 'monthly' })
  @IsIn(FREQUENCIES)
  frequency: string;

  @ApiProperty({
    enum: SCHEDULE_TYPES,
    example: 'annuity',
    description:
      'annuity (level instalments), differentiated (equal principal) or bullet (principal at the end)',
  })
  @IsIn(SCHEDULE_TYPES)
  scheduleType: string;

  @ApiProperty({ enum: DAY_COUNTS, example: 'ACT/365F', description: 'Day-count convention of the interest' })
  @IsIn(DAY_COUNTS)
  dayCount: string;

  @ApiPropertyOptional({ enum: INTEREST_METHODS, default: 'periodic', description: INTEREST_METHOD_HELP })
  @OptionalField()
  @IsIn(INTEREST_METHODS)
  interestMethod?: string;

  @ApiPropertyOptional({ default: 0, description: 'First instalments that pay interest (and fees) only' })
  @OptionalField()
  @IntField({ max: MAX_TERM_COUNT })
  graceInterestOnly?: number;

  @ApiPropertyOptional({
    default: 0,
    description: 'First instalments that pay nothing (their interest is due after them, not capitalised)',
  })
  @OptionalField()
  @IntField({ max: MAX_TERM_COUNT })
  gracePrincipal?: number;

  @ApiPropertyOptional({ default: 0, example: 100000, description: 'Fixed origination fee, minor units' })
  @OptionalField()
  @IntField({ max: MAX_MINOR_UNITS })
  originationFee?: number;

  @ApiPropertyOptional({
    default: '0',
    example: '1.5',
    description: 'Origination fee as a percentage of the amount, a decimal string ("1.5" is 1.5%)',
  })
  @OptionalField()
  @IsString()
  @Matches(RATE_PATTERN)
  originationFeePercent?: string;

  @ApiPropertyOptional({
    default: '0',
    example: '36.5',
    description: `Penalty rate on past-due principal and interest, ${RATE_HELP}`,
  })
  @OptionalField()
  @IsString()
  @Matches(RATE_PATTERN)
  penaltyAnnualRate?: string;

  @ApiPropertyOptional({ default: 0, description: 'Days after a due date before penalties start' })
  @OptionalField()
  @IntField({ max: 365 })
  penaltyGraceDays?: number;

  @ApiPropertyOptional({
    enum: DEBT_COMPONENTS,
    isArray: true,
    default: DEBT_COMPONENTS,
    description: ALLOCATION_ORDER_HELP,
  })
  @OptionalField()
  @IsArray()
  @IsString({ each: true })
  allocationOrder?: string[];

  @ApiPropertyOptional({
    enum: ROUNDINGS,
    default: 'half-up',
    description: 'How amounts round to a minor unit',
  })
  @OptionalField()
  @IsIn(ROUNDINGS)
  rounding?: string;

  @ApiPropertyOptional({
    enum: CONSENT_TYPES,
    isArray: true,
    default: [],
    description:
      'Consents the customer must have in force (given, not withdrawn) before the application is submitted or approved, the offer accepted, the contract made and the money paid out: each at most once (otherwise 422 LOAN_PRODUCT_INVALID, problem REQUIRED_CONSENTS); a missing one answers 409 CUSTOMER_CONSENT_REQUIRED',
  })
  @OptionalField()
  @IsArray()
  @IsIn(CONSENT_TYPES, { each: true })
  requiredConsents?: string[];

  @ApiPropertyOptional({ default: true, description: 'Whether new loans may be made on it' })
  @OptionalField()
  @IsBoolean()
  active?: boolean;
}

/** UpdateLoanProduct: the fields sent change (for loans made from then on; existing loans keep theirs). */
export class UpdateLoanProductRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  productId: string;

  @ApiPropertyOptional({ description: 'The version read; a stale one is 409 LOAN_PRODUCT_VERSION_CONFLICT' })
  @OptionalField()
  @IntField({ min: 1 })
  version?: number;

  @ApiPropertyOptional({ example: 'Cash loan, up to 24 months' })
  @OptionalField()
  @IsString()
  @MinChars(1)
  @MaxChars(200)
  name?: string;

  @ApiPropertyOptional({ example: 5000000 })
  @OptionalField()
  @IntField({ min: 1, max: MAX_MINOR_UNITS })
  minAmount?: number;

  @ApiPropertyOptional({ example: 800000000 })
  @OptionalField()
  @IntField({ min: 1, max: MAX_MINOR_UNITS })
  maxAmount?: number;

  @ApiPropertyOptional({ example: 3 })
  @OptionalField()
  @IntField({ min: 1, max: MAX_TERM_COUNT })
  minTerm?: number;

  @ApiPropertyOptional({ example: 36 })
  @OptionalField()
  @IntField({ min: 1, max: MAX_TERM_COUNT })
  maxTerm?: number;

  @ApiPropertyOptional({ example: '22' })
  @OptionalField()
  @IsString()
  @Matches(RATE_PATTERN)
  annualRate?: string;

  @ApiPropertyOptional({ enum: FREQUENCIES })
  @OptionalField()
  @IsIn(FREQUENCIES)
  frequency?: string;

  @ApiPropertyOptional({ enum: SCHEDULE_TYPES })
  @OptionalField()
  @IsIn(SCHEDULE_TYPES)
  scheduleType?: string;

  @ApiPropertyOptional({ enum: DAY_COUNTS })
  @OptionalField()
  @IsIn(DAY_COUNTS)
  dayCount?: string;

  @ApiPropertyOptional({ enum: INTEREST_METHODS, description: INTEREST_METHOD_HELP })
  @OptionalField()
  @IsIn(INTEREST_METHODS)
  interestMethod?: string;

  @ApiPropertyOptional()
  @OptionalField()
  @IntField({ max: MAX_TERM_COUNT })
  graceInterestOnly?: number;

  @ApiPropertyOptional()
  @OptionalField()
  @IntField({ max: MAX_TERM_COUNT })
  gracePrincipal?: number;

  @ApiPropertyOptional({ example: 100000 })
  @OptionalField()
  @IntField({ max: MAX_MINOR_UNITS })
  originationFee?: number;

  @ApiPropertyOptional({ example: '1' })
  @OptionalField()
  @IsString()
  @Matches(RATE_PATTERN)
  originationFeePercent?: string;

  @ApiPropertyOptional({ example: '36.5' })
  @OptionalField()
  @IsString()
  @Matches(RATE_PATTERN)
  penaltyAnnualRate?: string;

  @ApiPropertyOptional()
  @OptionalField()
  @IntField({ max: 365 })
  penaltyGraceDays?: number;

  @ApiPropertyOptional({
    enum: DEBT_COMPONENTS,
    isArray: true,
    description: ALLOCATION_ORDER_HELP,
  })
  @OptionalField()
  @IsArray()
  @IsString({ each: true })
  allocationOrder?: string[];

  @ApiPropertyOptional({ enum: ROUNDINGS })
  @OptionalField()
  @IsIn(ROUNDINGS)
  rounding?: string;

  @ApiPropertyOptional({
    enum: CONSENT_TYPES,
    isArray: true,
    description:
      'Replaces the required consents; existing loans and applications follow the product from then on',
  })
  @OptionalField()
  @IsArray()
  @IsIn(CONSENT_TYPES, { each: true })
  requiredConsents?: string[];

  @ApiPropertyOptional()
  @OptionalField()
  @IsBoolean()
  active?: boolean;
}
