import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { QueryInt } from '@platform/envelope';
import { PageRequest } from '../../common/dto/page.request';
import { LOAN_STATUSES } from '../loan-workflow';

/** Loans, filtered by status, customer or application; `total` counts every match. */
export class GetLoansRequest extends PageRequest {
  @ApiPropertyOptional({ enum: LOAN_STATUSES, description: 'Only loans in this status' })
  @IsOptional()
  @IsIn(LOAN_STATUSES)
  Status?: string;

  @ApiPropertyOptional({ format: 'uuid', description: "Only this customer's loans" })
  @IsOptional()
  @IsUUID()
  CustomerId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only the loan made from this application' })
  @IsOptional()
  @IsUUID()
  ApplicationId?: string;
}

/** One loan by its id. */
export class LoanIdQuery {
  @ApiProperty({ format: 'uuid', description: 'The loan' })
  @IsUUID()
  LoanId: string;
}

/** One loan's schedule: the one in force, or a version of its history. */
export class LoanScheduleRequest extends LoanIdQuery {
  @ApiPropertyOptional({
    minimum: 1,
    description:
      'A version of the schedule (1 is the disbursement’s; GetLoanScheduleVersions lists them). Default: the schedule in force',
  })
  @IsOptional()
  @QueryInt({ min: 1, max: 100_000 })
  Version?: number;
}

/** A page of one loan's records (its ledger transactions). */
export class LoanPageRequest extends PageRequest {
  @ApiProperty({ format: 'uuid', description: 'The loan' })
  @IsUUID()
  LoanId: string;
}
