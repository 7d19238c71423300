import { ApiProperty } from '@nestjs/swagger';
import { COMPONENT_STATES } from '../status-product.entity';

/** A published product and its current state. */
export class PublicProductResponse {
  @ApiProperty({ example: 'calendar' }) id: string;
  @ApiProperty({ example: 'Calendar' }) name: string;
  @ApiProperty({ enum: COMPONENT_STATES, example: 'operational' }) state: string;
}
