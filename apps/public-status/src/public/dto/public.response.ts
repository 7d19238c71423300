import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  COMPONENT_STATES,
  INCIDENT_IMPACTS,
  INCIDENT_STATUSES,
  MAINTENANCE_STATUSES,
} from '../../status/states';

/** A published product and its current state (the worst of its published resources). */
export class PublicProductResponse {
  @ApiProperty({ example: 'acme' }) business: string;
  @ApiProperty({ example: 'api' }) id: string;
  @ApiProperty({ example: 'Public API' }) name: string;
  @ApiProperty({ enum: COMPONENT_STATES, example: 'operational' }) state: string;
}

export class PublicComponentResponse {
  @ApiProperty({
    example: 'api/database',
    description: "The product's and the resource's slugs, as `product/resource`",
  })
  id: string;
  @ApiProperty({ example: 'Database' }) name: string;
  @ApiProperty({ enum: COMPONENT_STATES }) state: string;
  @ApiProperty({ format: 'date-time' }) since: string;
}

export class PublicIncidentUpdateResponse {
  @ApiProperty() seq: number;
  @ApiProperty({ enum: INCIDENT_STATUSES }) status: string;
  @ApiProperty() body: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty() prevHash: string;
  @ApiProperty() hash: string;
}

export class PublicIncidentResponse {
  @ApiProperty({ example: 'inc_k3v9q2m7x4ab' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: INCIDENT_IMPACTS }) impact: string;
  @ApiProperty({ enum: INCIDENT_STATUSES }) status: string;
  @ApiProperty({ type: [String], example: ['api/database'] }) components: string[];
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) resolvedAt: string | null;
  @ApiProperty({ type: [PublicIncidentUpdateResponse] }) updates: PublicIncidentUpdateResponse[];
}

export class PublicMaintenanceResponse {
  @ApiProperty({ example: 'mnt_p4k2x9v3q7ab' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty() body: string;
  @ApiProperty({ enum: MAINTENANCE_STATUSES }) status: string;
  @ApiProperty({ type: [String], example: ['api/database'] }) components: string[];
  @ApiProperty({ format: 'date-time' }) scheduledFor: string;
  @ApiProperty({ format: 'date-time' }) scheduledUntil: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) startedAt: string | null;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) completedAt: string | null;
  @ApiProperty({ format: 'date-time', description: 'When it was announced' }) createdAt: string;
  @ApiProperty({
    format: 'date-time',
    description: 'Its last change: completed, started, else announced (never the future start time)',
  })
  updatedAt: string;
}

export class PublicBusinessRef {
  @ApiProperty({ example: 'acme' }) slug: string;
  @ApiProperty({ example: 'Acme' }) name: string;
}

export class ProductStatusResponse {
  @ApiProperty() business: PublicBusinessRef;
  @ApiProperty() product: PublicProductResponse;
  @ApiProperty({ type: [PublicComponentResponse] }) components: PublicComponentResponse[];
  @ApiProperty({ type: [PublicIncidentResponse] }) incidents: PublicIncidentResponse[];
  @ApiProperty({ type: [PublicMaintenanceResponse] }) maintenances: PublicMaintenanceResponse[];
}

export class UptimeDayResponse {
  @ApiProperty({ format: 'date', example: '2026-11-23' }) date: string;
  @ApiProperty({ nullable: true, type: Number, example: 99.95, description: 'Percent; null without data' })
  uptime: number | null;
  @ApiPropertyOptional({ description: 'Seconds in each state that day' }) seconds?: Record<string, number>;
}

export class UptimeSeriesResponse {
  @ApiProperty({ example: 'api/database' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ nullable: true, type: Number, example: 99.98 }) uptime: number | null;
  @ApiProperty({ type: [UptimeDayResponse] }) days: UptimeDayResponse[];
}

export class UptimeRangeResponse {
  @ApiProperty({ format: 'date' }) from: string;
  @ApiProperty({ format: 'date' }) to: string;
}

export class ProductUptimeResponse {
  @ApiProperty() range: UptimeRangeResponse;
  @ApiProperty() product: UptimeSeriesResponse;
  @ApiProperty({ type: [UptimeSeriesResponse] }) components: UptimeSeriesResponse[];
}

export class UptimeHistoryProductResponse extends UptimeSeriesResponse {
  @ApiProperty({ type: [UptimeSeriesResponse] }) components: UptimeSeriesResponse[];
}

export class UptimeHistoryResponse {
  @ApiProperty() range: UptimeRangeResponse;
  @ApiProperty({ type: [UptimeHistoryProductResponse] }) products: UptimeHistoryProductResponse[];
}

export class StatusIndicatorResponse {
  @ApiProperty({ enum: ['none', 'minor', 'major', 'critical', 'maintenance'] }) indicator: string;
  @ApiProperty({ enum: COMPONENT_STATES }) state: string;
}

export class StatusPageProductResponse {
  @ApiProperty({ example: 'api' }) id: string;
  @ApiProperty() name: string;
  @ApiProperty({ enum: COMPONENT_STATES }) state: string;
  @ApiProperty({ type: [PublicComponentResponse] }) components: PublicComponentResponse[];
}

export class StatusPageResponse {
  @ApiProperty() business: PublicBusinessRef;
  @ApiProperty() status: StatusIndicatorResponse;
  @ApiProperty({ type: [StatusPageProductResponse] }) products: StatusPageProductResponse[];
  @ApiProperty({ type: [PublicIncidentResponse] }) incidents: PublicIncidentResponse[];
  @ApiProperty({ type: [PublicMaintenanceResponse] }) maintenances: PublicMaintenanceResponse[];
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class ChainHeadResponse {
  @ApiProperty({ example: 'inc_k3v9q2m7x4ab' }) id: string;
  @ApiProperty() length: number;
  @ApiProperty() head: string;
}

export class ChainHeadsResponse {
  @ApiProperty({ type: [ChainHeadResponse] }) incidents: ChainHeadResponse[];
  @ApiProperty({ type: [ChainHeadResponse] }) uptime: ChainHeadResponse[];
}
