import { ApiProperty } from '@nestjs/swagger';

/** A verification case as the list returns it. */
export class CaseResponse {
  @ApiProperty({ format: 'uuid', example: '9b2f7c1e-4a3d-4e8f-b6a1-0c5d2e7f8a90' }) id: string;
  @ApiProperty({ description: 'Where the case is in its workflow', example: 'AwaitingApplicant' })
  status: string;
  @ApiProperty({ description: "Caller's own application number", example: 'APP-2026-0042' })
  externalReferenceId: string;
  @ApiProperty({ example: 'Individual' }) applicantType: string;
  @ApiProperty({ description: 'Country code, ISO 3166-1 alpha-2', example: 'KZ' })
  applicantCountryCode: string;
  @ApiProperty({ description: 'Country code, ISO 3166-1 alpha-2', example: 'KZ' }) reportCountryCode: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-23T09:15:00.000Z' }) createdAt: string;
}
