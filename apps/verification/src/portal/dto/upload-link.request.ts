import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { IntField } from '@platform/envelope';
import { SUPPORTED_LANGUAGES, type Language } from '@platform/i18n';

export class UploadLinkRequest {
  @ApiPropertyOptional({
    description: 'Lifetime of the link in hours (default: the service setting, 72)',
    minimum: 1,
    maximum: 720,
    example: 48,
  })
  @IsOptional()
  @IntField({ min: 1, max: 720 })
  expiresInHours?: number;

  @ApiPropertyOptional({
    enum: SUPPORTED_LANGUAGES,
    description: "The portal's language for the borrower (they can still switch); default: their browser's",
    example: 'kk',
  })
  @IsOptional()
  @IsIn(SUPPORTED_LANGUAGES)
  language?: Language;
}

export class UploadLinkQrResponse {
  @ApiProperty({ description: 'The QR code of `url` as an SVG document (error correction M)' })
  svg: string;
  @ApiProperty({ description: 'The same QR code as a PNG image, base64', format: 'byte' })
  pngBase64: string;
}

export class UploadLinkResponse {
  @ApiProperty({
    description: 'The one-time borrower portal link, to send by SMS or messenger',
    example: 'https://verify.example.com/portal/v1/upload/vup_…',
  })
  url: string;
  @ApiProperty({ format: 'date-time', description: 'When the link stops working if still unused' })
  expiresAt: string;
  @ApiProperty({ enum: SUPPORTED_LANGUAGES, nullable: true, type: String })
  language: Language | null;
  @ApiProperty({
    type: UploadLinkQrResponse,
    description: 'The link as a QR code (shown once, like the link)',
  })
  qrCode: UploadLinkQrResponse;
}
