import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

/**
 * Events of one product entity. The identity triple makes an event unique, so with `entity_type` the
 * answer holds at most one event; without it, every type the product filed under that entity id.
 */
export class ListByEntityRequest {
  @ApiPropertyOptional({ description: 'Defaults to the ProductId header', example: 'crm' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  product_id?: string;

  @ApiPropertyOptional({ example: 'deal' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  entity_type?: string;

  @ApiProperty({ example: 'D-1042' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  entity_id: string;
}
