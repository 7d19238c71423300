import { ApiProperty } from '@nestjs/swagger';
import { CONSENT_ACTIONS, CONSENT_CHANNELS, CONSENT_TYPES } from '../consents/consent-rules';

/** One event of the consent history. */
export class ConsentEventResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) customerId: string;
  @ApiProperty({ enum: CONSENT_TYPES }) type: string;
  @ApiProperty({ enum: CONSENT_ACTIONS, description: 'Given or withdrawn' }) status: string;
  @ApiProperty({ example: 'Given', description: 'The status in the request language' }) statusName: string;
  @ApiProperty({ example: '2026-01' }) textVersion: string;
  @ApiProperty({ enum: CONSENT_CHANNELS }) channel: string;
  @ApiProperty({ nullable: true, type: String }) ipAddress: string | null;
  @ApiProperty({ nullable: true, type: String }) userAgent: string | null;
  @ApiProperty({ nullable: true, type: String }) evidence: string | null;
  @ApiProperty({ format: 'date-time', description: 'Server time of the event' }) at: string;
}
