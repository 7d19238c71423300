import { ApiProperty } from '@nestjs/swagger';
import { MAINTENANCE_STATUSES } from '../../status/states';

export class MaintenanceResponse {
  @ApiProperty({ example: 'mnt_p4k2x9v3q7ab' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty() body: string;
  @ApiProperty({ enum: MAINTENANCE_STATUSES }) status: string;
  @ApiProperty({ type: [String], example: ['api/database'] }) components: string[];
  @ApiProperty({ format: 'date-time' }) scheduledFor: string;
  @ApiProperty({ format: 'date-time' }) scheduledUntil: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) startedAt: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) completedAt: string | null;
}
