import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsString, IsUUID, Matches } from 'class-validator';
import { IntField, MaxChars, MinChars } from '@platform/envelope';
import { OptionalField } from '../../../common/dto/optional-field';
import { HOLIDAY_BASES, RESTRUCTURING_BASES } from '../../events/schedule-change-events';
import { RATE_PATTERN, SCHEDULE_TYPES } from '../../loan-terms';
import { MAX_HOLIDAY_PERIODS, MAX_TERM_COUNT } from '../../math';

/** RestructureLoan: new terms for what the loan still owes, from today. */
export class RestructureLoanRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  loanId: string;

  @ApiPropertyOptional({
    example: '15',
    description: 'The new nominal rate, percent a year as a decimal string (below 1000)',
  })
  @OptionalField()
  @IsString()
  @Matches(RATE_PATTERN)
  annualRate?: string;

  @ApiPropertyOptional({
    example: 24,
    description:
      'Instalments of the new schedule from today (default: as many as remain), within the product’s minTerm and maxTerm (otherwise 422 LOAN_TERM_OUT_OF_RANGE); due dates continue on the loan’s grid',
  })
  @OptionalField()
  @IntField({ min: 1, max: MAX_TERM_COUNT })
  termCount?: number;

  @ApiPropertyOptional({ enum: SCHEDULE_TYPES, description: 'The new schedule type (default: unchanged)' })
  @OptionalField()
  @IsIn(SCHEDULE_TYPES)
  scheduleType?: string;

  @ApiPropertyOptional({
    default: true,
    description:
      'Fold what is past due (unpaid instalments due up to today) into the new schedule; false leaves it overdue',
  })
  @OptionalField()
  @IsBoolean()
  includeOverdue?: boolean;

  @ApiPropertyOptional({
    enum: RESTRUCTURING_BASES,
    description:
      'Why, when this restructures the debt of a borrower in difficulty: reported to the bureau as a restructuring. Without it the change is reported as changed terms',
  })
  @OptionalField()
  @IsIn(RESTRUCTURING_BASES)
  basis?: string;

  @ApiPropertyOptional({
    example: 'Income fell; term extended by agreement',
    description: 'Kept with the change',
  })
  @OptionalField()
  @IsString()
  @MinChars(1)
  @MaxChars(500)
  reason?: string;
}

/** GrantPaymentHoliday: the next instalments pay nothing, every later one moves on. */
export class GrantPaymentHolidayRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUUID()
  loanId: string;

  @ApiProperty({
    example: 3,
    description:
      'How many of the next instalments pay nothing, at most the product’s maxTerm (otherwise 422 LOAN_SCHEDULE_CHANGE_INVALID, problem HOLIDAY_TOO_LONG); every later one moves as many periods later and interest is due after the holiday',
  })
  @IntField({ min: 1, max: MAX_HOLIDAY_PERIODS })
  periods: number;

  @ApiPropertyOptional({
    enum: HOLIDAY_BASES,
    default: 'lender-programme',
    description: 'By law (statutory credit holidays) or the lender’s own programme, as reported',
  })
  @OptionalField()
  @IsIn(HOLIDAY_BASES)
  basis?: string;

  @ApiPropertyOptional({ example: 'Hospital stay', description: 'Kept with the change' })
  @OptionalField()
  @IsString()
  @MinChars(1)
  @MaxChars(500)
  reason?: string;
}
