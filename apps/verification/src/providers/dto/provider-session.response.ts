import { ApiProperty } from '@nestjs/swagger';
import { PROVIDER_RESULTS, PROVIDER_SESSION_KINDS, PROVIDER_SESSION_STATUSES } from '../identity-provider';

/** A KYC/KYB session with the identity provider. */
export class ProviderSessionResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) caseId: string;
  @ApiProperty({ enum: PROVIDER_SESSION_KINDS, example: 'KYC' }) kind: string;
  @ApiProperty({ description: 'The provider that ran it', example: 'sandbox' }) provider: string;
  @ApiProperty({ enum: PROVIDER_SESSION_STATUSES, example: 'Completed' }) status: string;
  @ApiProperty({
    enum: PROVIDER_RESULTS,
    nullable: true,
    type: String,
    description: 'Null until the session completes',
    example: 'clear',
  })
  result: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: "The provider's answer per check, each { result, reason }",
  })
  breakdown: Record<string, unknown>;
  @ApiProperty({ format: 'date-time', example: '2026-11-23T09:15:00.000Z' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) completedAt: string | null;
}
