import { ApiProperty } from '@nestjs/swagger';
import { CHECK_STATUSES, CHECK_STEPS } from '../checks/check-steps';

/** One check step of an application. */
export class CheckResponse {
  @ApiProperty({ enum: CHECK_STEPS, example: 'credit_bureau' }) step: string;
  @ApiProperty({ example: 'Credit bureau report' }) stepName: string;
  @ApiProperty({ enum: CHECK_STATUSES, example: 'passed' }) status: string;
  @ApiProperty({ example: 'Passed' }) statusName: string;
  @ApiProperty({ example: 'stub-credit-bureau', description: 'The provider that answered' }) provider: string;
  @ApiProperty({ example: 1, description: 'Calls made for the step (a retry adds one)' }) attempts: number;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'NO_CREDIT_RECORD',
    description: 'Why the step did not pass (null when it passed or has not run)',
  })
  reasonCode: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: "The provider's answer as the step reads it (scoring: `score` and `factors`)",
  })
  result: Record<string, unknown> | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) startedAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) completedAt: string | null;
}
