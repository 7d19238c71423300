import { ApiProperty } from '@nestjs/swagger';
import { INCIDENT_IMPACTS, INCIDENT_ORIGINS, INCIDENT_STATUSES } from '../../status/states';

export class IncidentUpdateResponse {
  @ApiProperty() seq: number;
  @ApiProperty({ enum: INCIDENT_STATUSES }) status: string;
  @ApiProperty() body: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ description: 'sha256(previous hash || canonical update), hex' }) hash: string;
}

export class IncidentResponse {
  @ApiProperty({ example: 'inc_k3v9q2m7x4ab' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: INCIDENT_IMPACTS }) impact: string;
  @ApiProperty({ enum: INCIDENT_STATUSES }) status: string;
  @ApiProperty({ type: [String], example: ['api/database'] }) components: string[];
  @ApiProperty({
    enum: INCIDENT_ORIGINS,
    description: "automatic: opened by a resource's automated outage, resolved by its recovery",
  })
  origin: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) resolvedAt: string | null;
  @ApiProperty({ type: [IncidentUpdateResponse] }) updates: IncidentUpdateResponse[];
}
