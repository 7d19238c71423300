import { ApiProperty } from '@nestjs/swagger';
import { CASE_STATUSES } from '../case-statuses';

/** A verification case as the list and GET return it. */
export class CaseResponse {
  @ApiProperty({ format: 'uuid', example: '9b2f7c1e-4a3d-4e8f-b6a1-0c5d2e7f8a90' }) id: string;
  @ApiProperty({
    enum: CASE_STATUSES,
    description: 'Where the case is in its workflow',
    example: 'AwaitingApplicant',
  })
  status: string;
  @ApiProperty({ description: "Caller's own application number", example: 'APP-2026-0042' })
  externalReferenceId: string;
  @ApiProperty({ example: 'Individual' }) applicantType: string;
  @ApiProperty({ description: 'Country code, ISO 3166-1 alpha-2', example: 'KZ' })
  applicantCountryCode: string;
  @ApiProperty({ description: 'Country code, ISO 3166-1 alpha-2', example: 'KZ' }) reportCountryCode: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: "The applicant's name as given at creation; null when not given",
    example: 'Aigerim Serikovna Nurlanova',
  })
  applicantName: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    format: 'date',
    description: "An individual's date of birth as given at creation; null when not given",
    example: '1990-04-17',
  })
  applicantBirthDate: string | null;
  @ApiProperty({ format: 'date-time', example: '2026-11-23T09:15:00.000Z' }) createdAt: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-23T09:15:00.000Z' }) updatedAt: string;
}

/** The answer to case creation, exactly the spec's three fields. */
export class CreatedCaseResponse {
  @ApiProperty({ format: 'uuid', example: '9b2f7c1e-4a3d-4e8f-b6a1-0c5d2e7f8a90' }) id: string;
  @ApiProperty({ enum: CASE_STATUSES, example: 'AwaitingApplicant' }) status: string;
  @ApiProperty({
    description:
      'Borrower upload portal address with a single-use token; send it by SMS or messenger, or show it as a QR code',
    example: 'https://verify.example.com/portal/v1/upload/vup_5bX0yQ',
  })
  applicantUploadUrl: string;
}

/** One move of a case's status. */
export class CaseStatusChangeResponse {
  @ApiProperty({ enum: CASE_STATUSES, nullable: true, description: 'Null on creation', type: String })
  fromStatus: string | null;
  @ApiProperty({ enum: CASE_STATUSES }) toStatus: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-23T09:15:00.000Z' }) changedAt: string;
}
