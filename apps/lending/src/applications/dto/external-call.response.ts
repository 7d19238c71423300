import { ApiProperty } from '@nestjs/swagger';
import { CHECK_STEPS } from '../checks/check-steps';
import { EXTERNAL_CALL_MODES, EXTERNAL_CALL_STATUSES } from '../external-calls/external-call.entity';

/** One call to an external provider, bodies redacted. */
export class ExternalCallResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) applicationId: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true }) customerId: string | null;
  @ApiProperty({ enum: CHECK_STEPS, type: String, nullable: true }) checkStep: string | null;
  @ApiProperty({ example: 'stub-credit-bureau' }) provider: string;
  @ApiProperty({ example: 'POST /v2/credit-reports' }) operation: string;
  @ApiProperty({ enum: EXTERNAL_CALL_MODES }) mode: string;
  @ApiProperty({ enum: EXTERNAL_CALL_STATUSES }) status: string;
  @ApiProperty({ example: 3 }) durationMs: number;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'The request body as sent, redacted: secrets removed, identity numbers masked',
  })
  request: unknown;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'The response body as received, redacted the same way; null on a timeout',
  })
  response: unknown;
  @ApiProperty({ type: String, nullable: true, example: 'no answer within 15000 ms' }) error: string | null;
  @ApiProperty({ format: 'date-time' }) startedAt: string;
}
