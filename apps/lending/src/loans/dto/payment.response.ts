import { ApiProperty } from '@nestjs/swagger';
import { DEBT_COMPONENTS } from '../loan-terms';
import { LOAN_STATUSES } from '../loan-workflow';
import { PAYMENT_MODES } from '../payments/payment-plan';
import { LoanBalancesResponse } from './ledger.response';

/** What a payment paid on one debt component. */
export class AllocationPartResponse {
  @ApiProperty({ enum: DEBT_COMPONENTS }) component: string;
  @ApiProperty({ example: 'Current interest' }) componentName: string;
  @ApiProperty({ example: 16667, description: 'What was owed on it before the payment, minor units' })
  debt: number;
  @ApiProperty({ example: 16667, description: 'What the payment paid on it, minor units' }) amount: number;
}

/** A payment's allocation: booked (MakePayment) or only computed (PreviewPayment). */
export class PaymentResponse {
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'Null on a preview' })
  transactionId: string | null;
  @ApiProperty({ format: 'uuid' }) loanId: string;
  @ApiProperty({ example: 94560 }) amount: number;
  @ApiProperty({ example: 'KZT' }) currency: string;
  @ApiProperty({ format: 'date' }) valueDate: string;
  @ApiProperty({ enum: PAYMENT_MODES }) mode: string;
  @ApiProperty({
    type: [AllocationPartResponse],
    description: 'Every component, in the order the payment settled them',
  })
  parts: AllocationPartResponse[];
  @ApiProperty({
    example: 0,
    description: 'What exceeded every debt, minor units (booked to the overpayment account)',
  })
  overpayment: number;
  @ApiProperty({
    example:
      'allocation.order:fees>penalties>overdueInterest>overduePrincipal>currentInterest>currentPrincipal',
    description: 'The rule that produced the split (stable id)',
  })
  rule: string;
  @ApiProperty({ description: "The rule in the request's language" }) ruleText: string;
  @ApiProperty({ description: 'Whether the remaining schedule was regenerated (early repayment)' })
  scheduleChanged: boolean;
  @ApiProperty({ enum: LOAN_STATUSES, description: 'The loan after the payment' }) loanStatus: string;
  @ApiProperty({ example: 'Active' }) loanStatusName: string;
  @ApiProperty({ type: LoanBalancesResponse, description: 'The balances after the payment' })
  balances: LoanBalancesResponse;
}

/** ReversePayment's answer: the mirror transaction and what it undid. */
export class ReversalResponse {
  @ApiProperty({ format: 'uuid', description: 'The reversal transaction' }) transactionId: string;
  @ApiProperty({ format: 'uuid', description: 'The payment reversed' }) reversedTransactionId: string;
  @ApiProperty({ format: 'uuid' }) loanId: string;
  @ApiProperty({ example: 94560 }) amount: number;
  @ApiProperty({ format: 'date' }) valueDate: string;
  @ApiProperty({ type: [AllocationPartResponse], description: "The payment's parts, now owed again" })
  parts: AllocationPartResponse[];
  @ApiProperty({ example: 0 }) overpayment: number;
  @ApiProperty() rule: string;
  @ApiProperty() ruleText: string;
  @ApiProperty({ description: 'Whether the schedule the payment replaced is back in force' })
  scheduleRestored: boolean;
  @ApiProperty({ enum: LOAN_STATUSES }) loanStatus: string;
  @ApiProperty() loanStatusName: string;
  @ApiProperty({ type: LoanBalancesResponse }) balances: LoanBalancesResponse;
}
