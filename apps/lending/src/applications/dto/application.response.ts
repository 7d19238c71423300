import { ApiProperty } from '@nestjs/swagger';

/** An application as the list returns it. */
export class ApplicationResponse {
  @ApiProperty({ format: 'uuid', example: '3f0c9a52-8d1e-4c5b-9a4e-2b7d1c6e5f10' }) id: string;
  @ApiProperty({ description: 'Where the application is in its workflow', example: 'draft' }) status: string;
  @ApiProperty({ format: 'date-time', example: '2026-11-23T09:15:00.000Z' }) createdAt: string;
}
