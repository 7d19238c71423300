import { ApiProperty } from '@nestjs/swagger';

export class PortalDocumentResponse {
  @ApiProperty({ format: 'uuid', description: 'Identifier of the stored document' })
  documentId: string;
  @ApiProperty({ example: 'Passport' })
  kind: string;
  @ApiProperty({ example: 'passport.jpg' })
  fileName: string;
  @ApiProperty({ example: 1048576 })
  sizeBytes: number;
}

export class PortalFinishedResponse {
  @ApiProperty({ format: 'date-time', description: 'When the link was used up' })
  finishedAt: string;
}
