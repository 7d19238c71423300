import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import { IsCalendarDate } from '@platform/envelope';
import { OptionalField } from '../../../common/dto/optional-field';

/** RunAccruals: the organization's loans (or one) brought up to a date. */
export class RunAccrualsRequest {
  @ApiPropertyOptional({
    example: '2026-11-23',
    description:
      'Every day before it is accrued and its own start is run (what fell due before it is overdue on it). Default today (UTC); never after today',
  })
  @OptionalField()
  @IsCalendarDate()
  asOf?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only this loan (default: every active loan)' })
  @OptionalField()
  @IsUUID()
  loanId?: string;
}
