import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString, Matches, ValidateIf } from 'class-validator';
import { MaxChars } from '@platform/envelope';
import { RESOURCE_TYPES } from '../../events/calendar-event.entity';
import { EVENT_LIMITS as L } from '../../events/event-limits';
import { ICS_FEED_VIEWS, type IcsFeedView } from '../ics-feed.entity';

/** `type:id` as events store their resources, e.g. `room:r-301` (as the events query takes it). */
const RESOURCE_REF = new RegExp(`^(${RESOURCE_TYPES.join('|')}):\\S+$`);

export class CreateIcsFeedRequest {
  @ApiProperty({
    enum: ICS_FEED_VIEWS,
    example: 'person',
    description:
      '`person`: your own events; `team`: the events of a team you belong to; `resource`: the bookings of a room or equipment',
  })
  @IsIn(ICS_FEED_VIEWS)
  view: IcsFeedView;

  @ApiPropertyOptional({ example: 'sales', maxLength: 64, description: 'The team, with view `team`' })
  @ValidateIf((o: CreateIcsFeedRequest) => o.view === 'team' || o.team !== undefined)
  @IsString()
  @IsNotEmpty()
  @MaxChars(64)
  team?: string;

  @ApiPropertyOptional({
    example: 'room:r-301',
    description: 'The resource as `type:id`, with view `resource`',
  })
  @ValidateIf((o: CreateIcsFeedRequest) => o.view === 'resource' || o.resource !== undefined)
  @IsString()
  @MaxChars(L.resourceId + 16)
  @Matches(RESOURCE_REF)
  resource?: string;

  @ApiPropertyOptional({
    example: 'Sales team',
    maxLength: 100,
    description: 'The calendar’s name in the client; by default the person, team or resource',
  })
  @IsOptional()
  @IsString()
  @Matches(/\S/, { message: 'name must not be blank' })
  @MaxChars(100)
  name?: string;
}
