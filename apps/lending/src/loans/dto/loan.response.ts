import { ApiProperty } from '@nestjs/swagger';
import {
  DAY_COUNTS,
  DEBT_COMPONENTS,
  FREQUENCIES,
  INTEREST_METHODS,
  ROUNDINGS,
  SCHEDULE_TYPES,
} from '../loan-terms';
import { LOAN_ACTIONS, LOAN_STATUSES } from '../loan-workflow';
import { CostOfCreditResponse } from './cost-of-credit.response';

/** A move the loan can take from its status. */
export class AllowedLoanMoveResponse {
  @ApiProperty({ enum: LOAN_ACTIONS, example: 'DisburseLoan' }) action: string;
  @ApiProperty({ enum: LOAN_STATUSES, example: 'active' }) to: string;
  @ApiProperty({ example: 'Active' }) toName: string;
}

/** A loan contract: its terms (copied from the product when it was made), status and debt today. */
export class LoanResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: LOAN_STATUSES, example: 'active' }) status: string;
  @ApiProperty({ example: 'Active', description: "The status's name in the request's language" })
  statusName: string;
  @ApiProperty({ format: 'uuid' }) applicationId: string;
  @ApiProperty({ format: 'uuid' }) customerId: string;
  @ApiProperty({ format: 'uuid' }) productId: string;
  @ApiProperty({ example: 'KZT' }) currency: string;
  @ApiProperty({ example: 1000000, description: 'The amount lent, minor units' }) principal: number;
  @ApiProperty({ example: 12, description: 'Instalments of the original schedule' }) termCount: number;
  @ApiProperty({ example: '24.5', description: 'Nominal annual rate, percent' }) annualRate: string;
  @ApiProperty({ enum: FREQUENCIES }) frequency: string;
  @ApiProperty({ enum: SCHEDULE_TYPES }) scheduleType: string;
  @ApiProperty({ enum: DAY_COUNTS }) dayCount: string;
  @ApiProperty({ enum: INTEREST_METHODS }) interestMethod: string;
  @ApiProperty() graceInterestOnly: number;
  @ApiProperty() gracePrincipal: number;
  @ApiProperty({ example: 10000, description: 'Minor units, due with the first instalment' })
  originationFee: number;
  @ApiProperty({
    example: '36.5',
    description: 'Penalty rate on past-due principal and interest, percent a year',
  })
  penaltyAnnualRate: string;
  @ApiProperty() penaltyGraceDays: number;
  @ApiProperty({ enum: DEBT_COMPONENTS, isArray: true }) allocationOrder: string[];
  @ApiProperty({ enum: ROUNDINGS }) rounding: string;
  @ApiProperty({ type: String, format: 'date', nullable: true }) disbursedOn: string | null;
  @ApiProperty({ type: String, format: 'date', nullable: true }) closedOn: string | null;
  @ApiProperty({ example: 916667, description: 'Principal owed now (ledger), minor units' })
  principalOutstanding: number;
  @ApiProperty({ type: String, format: 'date', nullable: true, description: 'The next unpaid due date' })
  nextDueDate: string | null;
  @ApiProperty({ example: 0, description: 'Days since the oldest unpaid due date (0: nothing overdue)' })
  daysPastDue: number;
  @ApiProperty({
    type: CostOfCreditResponse,
    nullable: true,
    description:
      'The full cost of credit and the APR: before the disbursement from the schedule the terms generate if paid out today, after it from the schedule in force; null for a cancelled contract',
  })
  costOfCredit: CostOfCreditResponse | null;
  @ApiProperty({ type: [AllowedLoanMoveResponse] }) allowedMoves: AllowedLoanMoveResponse[];
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

/** One status of the loan, its name in the request's language and the moves out of it. */
export class LoanStatusResponse {
  @ApiProperty({ enum: LOAN_STATUSES, example: 'created' }) code: string;
  @ApiProperty({ example: 'Created' }) name: string;
  @ApiProperty({ description: 'No move leaves it' }) terminal: boolean;
  @ApiProperty({ type: [AllowedLoanMoveResponse] }) transitions: AllowedLoanMoveResponse[];
}
