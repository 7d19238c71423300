import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUUID } from 'class-validator';
import { IntField, IsCalendarDate, MaxChars, MinChars, QueryInt } from '@platform/envelope';
import { OptionalField } from '../../common/dto/optional-field';
import { MAX_MINOR_UNITS } from '../../common/money-limits';
import { PAYMENT_CHANNELS, REVERSAL_REASONS } from '../events/loan-facts';
import { PAYMENT_MODES } from '../payments/payment-plan';

const MODE_HELP =
  '`regular` (default): settles what is overdue and the current instalment, the rest is an overpayment. `reduceTerm` / `reduceInstalment`: an early repayment: interest only to the value date, the rest reduces principal and the remaining schedule is regenerated keeping the instalment (shorter term) or the term (smaller instalment); enough to repay everything closes the loan';

/** MakePayment: money received from the borrower. */
export class MakePaymentRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  loanId: string;

  @ApiProperty({ example: 94560, description: 'Amount received, minor units of the loan currency' })
  @IntField({ min: 1, max: MAX_MINOR_UNITS })
  amount: number;

  @ApiPropertyOptional({
    example: '2026-12-23',
    description:
      "The day the money was received (default today, UTC): not in the future, not before the disbursement or the loan's last transaction",
  })
  @OptionalField()
  @IsCalendarDate()
  valueDate?: string;

  @ApiPropertyOptional({ enum: PAYMENT_MODES, default: 'regular', description: MODE_HELP })
  @OptionalField()
  @IsIn(PAYMENT_MODES)
  mode?: string;

  @ApiPropertyOptional({ enum: PAYMENT_CHANNELS, default: 'other', description: 'How the money came' })
  @OptionalField()
  @IsIn(PAYMENT_CHANNELS)
  channel?: string;
}

/** PreviewPayment: the same as MakePayment, in the query, and nothing is booked. */
export class PreviewPaymentRequest {
  @ApiProperty({ format: 'uuid', description: 'The loan' })
  @IsUUID()
  LoanId: string;

  @ApiProperty({ example: 94560, description: 'Amount, minor units' })
  @QueryInt({ min: 1, max: MAX_MINOR_UNITS })
  Amount: number;

  @ApiPropertyOptional({ example: '2026-12-23', description: 'Value date (default today, UTC)' })
  @IsOptional()
  @IsCalendarDate()
  ValueDate?: string;

  @ApiPropertyOptional({ enum: PAYMENT_MODES, default: 'regular', description: MODE_HELP })
  @IsOptional()
  @IsIn(PAYMENT_MODES)
  Mode?: string;
}

/** ReversePayment: undo a payment (the loan's latest transaction). */
export class ReversePaymentRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  loanId: string;

  @ApiProperty({ format: 'uuid', description: "The payment's ledger transaction" })
  @IsUUID()
  transactionId: string;

  @ApiPropertyOptional({ example: 'Returned by the bank', description: 'Kept with the reversal' })
  @OptionalField()
  @IsString()
  @MinChars(1)
  @MaxChars(500)
  reason?: string;

  @ApiPropertyOptional({
    enum: REVERSAL_REASONS,
    default: 'booked-in-error',
    description: 'Why, as reported',
  })
  @OptionalField()
  @IsIn(REVERSAL_REASONS)
  reasonCode?: string;
}
