import { ApiProperty } from '@nestjs/swagger';
import { DOCUMENT_KINDS, DOCUMENT_SOURCES, DOCUMENT_STATUSES } from '../document-statuses';

const WHEN = '2026-11-23T09:15:00.000Z';

/** A document's metadata (never its storage key). */
export class DocumentResponse {
  @ApiProperty({ format: 'uuid', example: '3f6c1a9e-2b7d-4c8e-9f01-5a6b7c8d9e0f' }) id: string;
  @ApiProperty({ format: 'uuid', example: '9b2f7c1e-4a3d-4e8f-b6a1-0c5d2e7f8a90' }) caseId: string;
  @ApiProperty({ enum: DOCUMENT_KINDS, example: 'Passport' }) kind: string;
  @ApiProperty({
    enum: DOCUMENT_SOURCES,
    description: '`applicant`: the borrower portal; `api`: your system, through a signed upload URL',
    example: 'api',
  })
  source: string;
  @ApiProperty({
    enum: DOCUMENT_STATUSES,
    description: 'Where the document is in its processing',
    example: 'Uploaded',
  })
  status: string;
  @ApiProperty({ type: String, nullable: true, example: 'passport.jpg' }) fileName: string | null;
  @ApiProperty({ description: 'The media type the sender declared', example: 'image/jpeg' })
  declaredContentType: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The media type found in the bytes by the checks; null until they ran',
    example: 'image/jpeg',
  })
  detectedType: string | null;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Bytes; null before the upload',
    example: 482133,
  })
  sizeBytes: number | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Hex SHA-256 of the bytes; null before the upload',
    example: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  })
  sha256: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why the document was rejected (a reason code); null otherwise',
    example: null,
  })
  rejectionReason: string | null;
  @ApiProperty({ format: 'date-time', example: WHEN }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: WHEN }) uploadedAt:
    string | null;
  @ApiProperty({ format: 'date-time', example: WHEN }) updatedAt: string;
}

/** One move of a document's status. */
export class DocumentStatusChangeResponse {
  @ApiProperty({ enum: DOCUMENT_STATUSES, nullable: true, description: 'Null on creation', type: String })
  fromStatus: string | null;
  @ApiProperty({ enum: DOCUMENT_STATUSES }) toStatus: string;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'A reason code, when the move has one',
    example: null,
  })
  reason: string | null;
  @ApiProperty({ format: 'date-time', example: WHEN }) changedAt: string;
}

/** A document with its status history, oldest move first. */
export class DocumentDetailResponse extends DocumentResponse {
  @ApiProperty({ type: [DocumentStatusChangeResponse] }) statusHistory: DocumentStatusChangeResponse[];
}

export class UploadHeadersResponse {
  @ApiProperty({ name: 'Content-Type', example: 'image/jpeg' }) 'Content-Type': string;
}

/** Where and how to upload the file's bytes. */
export class SignedUploadUrlResponse {
  @ApiProperty({ format: 'uuid', example: '3f6c1a9e-2b7d-4c8e-9f01-5a6b7c8d9e0f' }) documentId: string;
  @ApiProperty({
    description:
      'PUT the bytes here, once, before `expiresAt`; the signature in the query is the only credential (send no API key)',
    example:
      'https://verify.example.com/api/v1/document-uploads/3f6c1a9e-2b7d-4c8e-9f01-5a6b7c8d9e0f?expires=1795426200&signature=5d41402abc4b2a76b9719d911017c592ae0f8e3b7c9d2e1f0a1b2c3d4e5f6a7b',
  })
  uploadUrl: string;
  @ApiProperty({ enum: ['PUT'], example: 'PUT' }) method: 'PUT';
  @ApiProperty({ type: UploadHeadersResponse, description: 'Headers the upload must send' })
  headers: UploadHeadersResponse;
  @ApiProperty({ format: 'date-time', example: WHEN }) expiresAt: string;
  @ApiProperty({ description: 'Largest body accepted, in bytes', example: 20971520 }) maxBytes: number;
}
