import { ApiProperty } from '@nestjs/swagger';
import { COMPONENT_STATES, STATE_SOURCES } from '../../status/states';

export class BusinessResponse {
  @ApiProperty({ example: 'acme' }) id: string;
  @ApiProperty({ example: 'acme' }) slug: string;
  @ApiProperty({ example: 'Acme' }) name: string;
  @ApiProperty() published: boolean;
}

export class ManagedResourceResponse {
  @ApiProperty({ example: 'database' }) slug: string;
  @ApiProperty({ example: 'Database' }) name: string;
  @ApiProperty() published: boolean;
  @ApiProperty() sortOrder: number;
  @ApiProperty({ enum: COMPONENT_STATES }) state: string;
  @ApiProperty({ enum: STATE_SOURCES }) stateSource: string;
  @ApiProperty({ format: 'date-time' }) stateSince: string;
  @ApiProperty({ nullable: true, type: String, example: 'calendar' }) platformService: string | null;
  @ApiProperty() automaticIncidents: boolean;
}

export class ManagedProductResponse {
  @ApiProperty({ example: 'api' }) slug: string;
  @ApiProperty({ example: 'Public API' }) name: string;
  @ApiProperty() published: boolean;
  @ApiProperty() sortOrder: number;
  @ApiProperty({ type: [ManagedResourceResponse] }) resources: ManagedResourceResponse[];
}

export class HistoryEntryResponse {
  @ApiProperty({ enum: COMPONENT_STATES }) state: string;
  @ApiProperty({ enum: STATE_SOURCES }) source: string;
  @ApiProperty() note: string;
  @ApiProperty({ format: 'date-time' }) startedAt: string;
  @ApiProperty({ format: 'date-time', nullable: true, type: String }) endedAt: string | null;
}
