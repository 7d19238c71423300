import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, IsUUID } from 'class-validator';
import { IntField, IsCalendarDate, MaxChars, MinChars } from '@platform/envelope';
import { OptionalField } from '../../common/dto/optional-field';
import { MAX_MINOR_UNITS } from '../../common/money-limits';
import { WRITE_OFF_REASONS } from '../events/loan-facts';
import { MAX_TERM_COUNT } from '../math';

/** CreateLoan: a contract from an approved application on a product. */
export class CreateLoanRequest {
  @ApiProperty({
    format: 'uuid',
    description: 'An approved application (or one whose offer the customer accepted)',
  })
  @IsUUID()
  applicationId: string;

  @ApiProperty({ format: 'uuid', description: 'The product whose terms the loan takes' })
  @IsUUID()
  productId: string;

  @ApiPropertyOptional({
    example: 1000000,
    description:
      "Minor units; default the approved amount. At most the approved amount, within the product's limits",
  })
  @OptionalField()
  @IntField({ min: 1, max: MAX_MINOR_UNITS })
  amount?: number;

  @ApiPropertyOptional({
    example: 12,
    description:
      "Number of instalments; default the approved term in months when the product's frequency is monthly (or quarterly, in whole quarters)",
  })
  @OptionalField()
  @IntField({ min: 1, max: MAX_TERM_COUNT })
  termCount?: number;
}

/** An action on one loan that takes nothing else but a reason (CancelLoan, WriteOffLoan). */
export class LoanActionRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  loanId: string;

  @ApiPropertyOptional({ example: 'Customer changed their mind', description: 'Kept with the change' })
  @OptionalField()
  @IsString()
  @MinChars(1)
  @MaxChars(500)
  reason?: string;
}

/** DisburseLoan: pay the loan out, generate and store its schedule. */
export class DisburseLoanRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  loanId: string;

  @ApiPropertyOptional({
    example: '2026-11-23',
    description: 'The day the money was paid out (default today, UTC); not in the future',
  })
  @OptionalField()
  @IsCalendarDate()
  disbursedOn?: string;

  @ApiPropertyOptional({
    example: '2026-12-23',
    description:
      'Due date of the first instalment (default one period after the disbursement); later ones follow on its grid',
  })
  @OptionalField()
  @IsCalendarDate()
  firstDueDate?: string;
}

/** WriteOffLoan: the loan and why. */
export class WriteOffLoanRequest extends LoanActionRequest {
  @ApiPropertyOptional({ enum: WRITE_OFF_REASONS, default: 'uncollectable', description: 'Why, as reported' })
  @OptionalField()
  @IsIn(WRITE_OFF_REASONS)
  reasonCode?: string;
}
