import { ApiProperty } from '@nestjs/swagger';

/** A closed accounting day and its file. */
export class AccountingDayResponse {
  @ApiProperty({ example: '2026-12-05' }) businessDate: string;
  @ApiProperty({ format: 'date-time', example: '2026-12-06T00:10:03.120Z' }) closedAt: string;
  @ApiProperty({
    format: 'uuid',
    description:
      'The `lending.accounting.day-closed` event (its Kafka `event-id`), the last record of the file',
    example: '4f1c2d3e-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
  })
  dayClosedEventId: string;
  @ApiProperty({ description: 'Accounting events of the day, the day close excluded', example: 12 })
  eventCount: number;
  @ApiProperty({ description: 'Records of the file after its header', example: 31 })
  recordCount: number;
  @ApiProperty({ example: 'lending-accounting_org-a_2026-12-05_v1.csv' }) fileName: string;
  @ApiProperty({
    description: 'SHA-256 of the file, 64 lower-case hex digits (the `.sha256` sidecar: `sha256sum -c`)',
    example: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  })
  fileSha256: string;
  @ApiProperty({ description: 'Size of the file in bytes', example: 14210 }) fileBytes: number;
}
