import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { MaxChars, MinChars } from '@platform/envelope';
import { SUPPORTED_LANGUAGES, type Language } from '@platform/i18n';

export class ReportPdfQuery {
  @ApiProperty({
    required: false,
    enum: SUPPORTED_LANGUAGES,
    description: 'Language of the report; default: Accept-Language, else en',
    example: 'ru',
  })
  @IsOptional()
  @IsIn(SUPPORTED_LANGUAGES)
  language?: Language;
}

export class IssueReportRequest {
  @ApiProperty({
    required: false,
    enum: SUPPORTED_LANGUAGES,
    description: 'Language of the report; default: Accept-Language, else en',
    example: 'kk',
  })
  @IsOptional()
  @IsIn(SUPPORTED_LANGUAGES)
  language?: Language;

  @ApiProperty({
    required: false,
    description:
      'A password with which a third party opens the full report at its public address (8 to 256 characters); only its scrypt hash is kept. Without it the public address shows no personal data and has no full view.',
    example: 'correct horse battery staple',
    minLength: 8,
    maxLength: 256,
  })
  @IsOptional()
  @IsString()
  @MinChars(8)
  @MaxChars(256)
  sharePassword?: string;
}

export class RevokeReportRequest {
  @ApiProperty({
    description: 'Why the report is revoked (kept in the issuance log; not shown publicly)',
    example: 'Issued for the wrong applicant',
    maxLength: 500,
  })
  @IsString()
  @MinChars(1)
  @MaxChars(500)
  reason: string;
}

/** The password form of the public page, or the same as JSON. */
export class OpenReportRequest {
  @ApiProperty({
    description: 'The password the issuer set',
    example: 'correct horse battery staple',
    maxLength: 256,
  })
  password: string;
}

export class CheckReportRequest {
  @ApiProperty({
    description: 'SHA-256 of the PDF, 64 hexadecimal digits (or send the PDF itself as the body)',
    example: '3f0a5c4e9b2d1f8a7c6e5d4b3a291807f6e5d4c3b2a19080706050403020100f',
    pattern: '^[0-9a-fA-F]{64}$',
  })
  sha256: string;
}
