import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { IntField } from '@platform/envelope';
import { EventIdentityDto } from '../../events/dto/upsert-event.request';

export class AttachConferenceRequest extends EventIdentityDto {
  @ApiPropertyOptional({
    description: 'When sent, the room is attached only at this version (409 otherwise)',
  })
  @IsOptional()
  @IntField({ min: 1 })
  version?: number;
}
