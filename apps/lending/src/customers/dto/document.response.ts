import { ApiProperty } from '@nestjs/swagger';
import { DOCUMENT_STATUSES, DOCUMENT_TYPES } from '../customer-statuses';
import { DOCUMENT_CONTENT_TYPES } from '../documents/document-files';

export class DocumentResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ format: 'uuid' }) customerId: string;
  @ApiProperty({ enum: DOCUMENT_TYPES }) type: string;
  @ApiProperty({ enum: DOCUMENT_STATUSES }) status: string;
  @ApiProperty({ example: 'Uploaded', description: 'The status in the request language' }) statusName: string;
  @ApiProperty({ example: 'passport.pdf' }) fileName: string;
  @ApiProperty({ enum: DOCUMENT_CONTENT_TYPES, description: 'Recognised from the first bytes of the file' })
  contentType: string;
  @ApiProperty({ example: 182044 }) sizeBytes: number;
  @ApiProperty({
    example: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    description: 'SHA-256 of the bytes, hex',
  })
  sha256: string;
  @ApiProperty({ nullable: true, type: String }) reviewComment: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) reviewedAt: string | null;
  @ApiProperty({ format: 'date-time' }) uploadedAt: string;
}
