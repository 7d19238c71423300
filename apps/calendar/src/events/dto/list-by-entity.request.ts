import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsOptional, IsString } from 'class-validator';
import { MaxChars } from '@platform/envelope';
import { EVENT_LIMITS as L } from '../event-limits';

/**
 * Events of one product entity. The identity triple makes an event unique, so with `entity_type` the
 * answer holds at most one event; without it, every type the product filed under that entity id.
 */
export class ListByEntityRequest {
  @ApiPropertyOptional({ description: 'Defaults to the ProductId header', example: 'crm' })
  @IsOptional()
  @IsString()
  @MaxChars(L.productId)
  product_id?: string;

  @ApiPropertyOptional({ description: 'Kind of entity in the product, e.g. a deal', example: 'deal' })
  @IsOptional()
  @IsString()
  @MaxChars(L.entityType)
  entity_type?: string;

  @ApiProperty({ description: 'The entity’s id in the product', example: 'D-1042' })
  @IsString()
  @IsNotEmpty()
  @MaxChars(L.entityId)
  entity_id: string;
}
