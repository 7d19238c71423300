import { ApiProperty } from '@nestjs/swagger';
import { CHECK_OUTCOMES, CHECK_STEPS } from '../check-steps';

/** One stored result of a check step. */
export class CheckStepResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: CHECK_STEPS, example: 'mrz-check-digits' }) step: string;
  @ApiProperty({ enum: CHECK_OUTCOMES, example: 'passed' }) outcome: string;
  @ApiProperty({
    description: 'Stable id of the rule that decided the outcome (docs/verification/checks.md)',
    example: 'ICAO9303.check-digit.document-number',
  })
  rule: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'What was read and compared, e.g. the MRZ line and position, the two names normalised',
  })
  evidence: Record<string, unknown>;
  @ApiProperty({ type: String, nullable: true, description: 'A human-readable explanation, in English' })
  detail: string | null;
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The document checked, if any' })
  documentId: string | null;
  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'The provider session, for provider-kyc and provider-kyb',
  })
  providerSessionId: string | null;
  @ApiProperty({ format: 'date-time', example: '2026-11-23T09:15:00.000Z' }) createdAt: string;
}
