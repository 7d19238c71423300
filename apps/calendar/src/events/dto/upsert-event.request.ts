import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsISO8601, IsNotEmpty, IsOptional, IsString, MaxLength, Min } from 'class-validator';
import { EVENT_STATUSES, type EventStatus } from '../calendar-event.entity';

export class UpsertEventRequest {
  @ApiPropertyOptional({
    description: 'Owning product; must equal the ProductId header when sent',
    example: 'crm',
  })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  product_id?: string;

  @ApiProperty({ description: 'Type of the product entity', example: 'deal' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  entity_type: string;

  @ApiProperty({ description: 'Id of the entity in the product', example: 'D-1042' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  entity_id: string;

  @ApiPropertyOptional({ description: 'Version the caller saw last; absent or 0 to create', example: 0 })
  @IsOptional()
  @IsInt()
  @Min(0)
  version?: number;

  @ApiPropertyOptional({ example: 'Contract signing' })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  title?: string;

  @ApiPropertyOptional({ example: '2026-12-01T10:00:00Z' })
  @IsOptional()
  @IsISO8601({ strict: true })
  starts_at?: string;

  @ApiPropertyOptional({ example: '2026-12-01T11:00:00Z' })
  @IsOptional()
  @IsISO8601({ strict: true })
  ends_at?: string;

  @ApiPropertyOptional({ enum: EVENT_STATUSES, example: 'confirmed' })
  @IsOptional()
  @IsIn(EVENT_STATUSES)
  status?: EventStatus;
}
