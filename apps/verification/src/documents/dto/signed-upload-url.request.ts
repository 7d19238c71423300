import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { INT32_MAX, MaxChars, MinChars } from '@platform/envelope';
import { DOCUMENT_CONTENT_TYPES, DOCUMENT_KINDS, type DocumentKind } from '../document-statuses';

export class SignedUploadUrlRequest {
  @ApiProperty({ enum: DOCUMENT_KINDS, example: 'Passport', description: 'What the document is' })
  @IsIn(DOCUMENT_KINDS)
  kind: DocumentKind;

  @ApiProperty({
    required: false,
    description:
      'The file name to show (its last path segment is kept); never used to store the file, whose key the server derives',
    example: 'passport.jpg',
    maxLength: 200,
  })
  @IsOptional()
  @IsString()
  @MinChars(1)
  @MaxChars(200)
  fileName?: string;

  @ApiProperty({
    description: `The file's media type; the upload must send exactly this Content-Type. One of: ${DOCUMENT_CONTENT_TYPES.join(', ')}`,
    example: 'image/jpeg',
    maxLength: 100,
  })
  @IsString()
  @MinChars(1)
  @MaxChars(100)
  contentType: string;

  @ApiProperty({
    required: false,
    description: 'The size you intend to upload, in bytes: refused at once when over the limit',
    example: 482133,
    minimum: 1,
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(INT32_MAX)
  sizeBytes?: number;
}
