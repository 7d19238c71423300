import { ApiProperty } from '@nestjs/swagger';
import type { CalendarEvent } from '../calendar-event.entity';

export class EventResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'crm' }) product_id: string;
  @ApiProperty({ example: 'deal' }) entity_type: string;
  @ApiProperty({ example: 'D-1042' }) entity_id: string;
  @ApiProperty({ example: 1 }) version: number;
  @ApiProperty({ nullable: true, type: String }) title: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) starts_at: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) ends_at: string | null;
  @ApiProperty({ example: 'confirmed' }) status: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;

  static from(e: CalendarEvent): EventResponse {
    return {
      id: e.id,
      product_id: e.productId,
      entity_type: e.entityType,
      entity_id: e.entityId,
      version: e.version,
      title: e.title,
      starts_at: e.startsAt?.toISOString() ?? null,
      ends_at: e.endsAt?.toISOString() ?? null,
      status: e.status,
      created_at: e.createdAt.toISOString(),
      updated_at: e.updatedAt.toISOString(),
    };
  }
}
