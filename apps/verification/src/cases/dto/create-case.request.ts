import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsISO31661Alpha2, IsOptional, IsString, Matches } from 'class-validator';
import { IsCalendarDate, MaxChars, MinChars } from '@platform/envelope';

export const APPLICANT_TYPES = ['Individual', 'Business'] as const;
/** Upper case, as ISO 3166-1 writes it; `IsISO31661Alpha2` then checks the code is assigned (not `XX`). */
const COUNTRY = /^[A-Z]{2}$/;

export class CreateCaseRequest {
  @ApiProperty({ description: "Caller's own application number", example: 'APP-2026-0042', maxLength: 128 })
  @IsString()
  @MinChars(1)
  @MaxChars(128)
  externalReferenceId: string;

  @ApiProperty({ enum: APPLICANT_TYPES, example: 'Individual' })
  @IsIn(APPLICANT_TYPES)
  applicantType: (typeof APPLICANT_TYPES)[number];

  @ApiProperty({
    description: 'An assigned ISO 3166-1 alpha-2 country code',
    example: 'KZ',
    pattern: '^[A-Z]{2}$',
  })
  @IsString()
  @Matches(COUNTRY)
  @IsISO31661Alpha2()
  applicantCountryCode: string;

  @ApiProperty({
    description: 'An assigned ISO 3166-1 alpha-2 country code',
    example: 'KZ',
    pattern: '^[A-Z]{2}$',
  })
  @IsString()
  @Matches(COUNTRY)
  @IsISO31661Alpha2()
  reportCountryCode: string;

  @ApiProperty({
    required: false,
    description:
      "The applicant's full name as the caller knows it (an individual's name, or a business's legal name); the document checks compare it with the name read from the document",
    example: 'Aigerim Serikovna Nurlanova',
    maxLength: 200,
  })
  @IsOptional()
  @IsString()
  @MinChars(1)
  @MaxChars(200)
  applicantName?: string;

  @ApiProperty({
    required: false,
    description:
      "An individual's date of birth (YYYY-MM-DD); the document checks compare it with the document",
    example: '1990-04-17',
    format: 'date',
  })
  @IsOptional()
  @IsCalendarDate()
  applicantBirthDate?: string;
}
