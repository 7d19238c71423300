import { ApiProperty } from '@nestjs/swagger';
import { CONSENT_TYPES } from '../../../customers/consents/consent-rules';
import {
  DAY_COUNTS,
  DEBT_COMPONENTS,
  FREQUENCIES,
  INTEREST_METHODS,
  ROUNDINGS,
  SCHEDULE_TYPES,
} from '../../loan-terms';

/** A loan product as the API answers it. */
export class LoanProductResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'CASH_12' }) code: string;
  @ApiProperty({ example: 'Cash loan, up to 12 months' }) name: string;
  @ApiProperty({ example: 'KZT' }) currency: string;
  @ApiProperty({ example: 5000000, description: 'Minor units' }) minAmount: number;
  @ApiProperty({ example: 500000000, description: 'Minor units' }) maxAmount: number;
  @ApiProperty({ example: 3 }) minTerm: number;
  @ApiProperty({ example: 24 }) maxTerm: number;
  @ApiProperty({ example: '24.5', description: 'Percent a year' }) annualRate: string;
  @ApiProperty({ enum: FREQUENCIES }) frequency: string;
  @ApiProperty({ enum: SCHEDULE_TYPES }) scheduleType: string;
  @ApiProperty({ enum: DAY_COUNTS }) dayCount: string;
  @ApiProperty({ enum: INTEREST_METHODS }) interestMethod: string;
  @ApiProperty({ example: 0 }) graceInterestOnly: number;
  @ApiProperty({ example: 0 }) gracePrincipal: number;
  @ApiProperty({ example: 100000, description: 'Minor units' }) originationFee: number;
  @ApiProperty({ example: '1.5', description: 'Percent of the amount' }) originationFeePercent: string;
  @ApiProperty({ example: '36.5', description: 'Percent a year' }) penaltyAnnualRate: string;
  @ApiProperty({ example: 0 }) penaltyGraceDays: number;
  @ApiProperty({
    enum: DEBT_COMPONENTS,
    isArray: true,
    description: 'All six components in the order a payment settles them (an order named in part, completed)',
  })
  allocationOrder: string[];
  @ApiProperty({ enum: ROUNDINGS }) rounding: string;
  @ApiProperty({
    enum: CONSENT_TYPES,
    isArray: true,
    description:
      'Consents the customer must have in force for submission, approval, contract and disbursement',
  })
  requiredConsents: string[];
  @ApiProperty() active: boolean;
  @ApiProperty({ example: 1, description: 'Grows with every change; send it back to UpdateLoanProduct' })
  version: number;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}
