import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { MaxChars, MinChars } from '@platform/envelope';
import { DOCUMENT_TYPES, type DocumentType } from '../customer-statuses';
import { OptionalField, Text, Uuid } from './fields';
import { CustomerIdQuery } from './customer.request';

export class UploadDocumentQuery extends CustomerIdQuery {
  @ApiProperty({ enum: DOCUMENT_TYPES, description: 'What the document is' })
  @IsIn(DOCUMENT_TYPES)
  Type: DocumentType;
  @ApiPropertyOptional({
    example: 'passport.pdf',
    description: 'Shown in lists and downloads only; never used to store the file',
  })
  @IsOptional()
  @IsString()
  @MinChars(1)
  @MaxChars(255)
  FileName?: string;
}

export class DocumentIdQuery {
  @ApiProperty({ format: 'uuid', description: "The document's id" }) @Uuid() DocumentId: string;
}

export const REVIEW_STATUSES = ['verified', 'rejected'] as const;

export class ReviewDocumentRequest {
  @ApiProperty({ format: 'uuid' }) @Uuid() documentId: string;
  @ApiProperty({ enum: REVIEW_STATUSES }) @IsIn(REVIEW_STATUSES) status: (typeof REVIEW_STATUSES)[number];
  @ApiPropertyOptional({ example: 'Expired on 2024-05-01' }) @OptionalField() @Text(1000) comment?: string;
}
