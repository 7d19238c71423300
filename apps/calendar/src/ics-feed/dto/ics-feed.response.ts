import { ApiProperty } from '@nestjs/swagger';
import { ICS_FEED_VIEWS, type IcsFeedView } from '../ics-feed.entity';

/** A feed as listed: never its token. */
export class IcsFeedResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ example: 'Sales team' }) name: string;
  @ApiProperty({ enum: ICS_FEED_VIEWS }) view: IcsFeedView;
  @ApiProperty({
    example: 'sales',
    description: 'Your person id, the team, or the resource as `type:id`',
  })
  target: string;
  @ApiProperty({
    example: 'ics_4Fq9Zk2LmN7x',
    description: 'The start of the token, to tell feeds apart; the rest is never shown again',
  })
  token_prefix: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({
    nullable: true,
    type: String,
    format: 'date-time',
    description: 'Last fetch by a calendar client, to the minute; null when never fetched',
  })
  last_used_at: string | null;
}

/** A new feed: the only answer that ever shows its token and address. */
export class CreatedIcsFeedResponse extends IcsFeedResponse {
  @ApiProperty({
    example: 'ics_4Fq9Zk2LmN7x_Yb3cV8nM1qW5eR7tZ0uI2oP4aS6dF9gH1jK3lX5',
    description: 'The feed’s token, shown this once: only its hash is kept',
  })
  token: string;
  @ApiProperty({
    example:
      'https://platform.example.com/Calendar/ics/ics_4Fq9Zk2LmN7x_Yb3cV8nM1qW5eR7tZ0uI2oP4aS6dF9gH1jK3lX5',
    description:
      'The address to subscribe to (Google Calendar: From URL; Outlook: Subscribe from web); anyone holding it reads the feed',
  })
  url: string;
  @ApiProperty({
    example:
      'webcal://platform.example.com/Calendar/ics/ics_4Fq9Zk2LmN7x_Yb3cV8nM1qW5eR7tZ0uI2oP4aS6dF9gH1jK3lX5',
    description: 'The same address as a webcal link, which Apple Calendar and Outlook open as a subscription',
  })
  webcal_url: string;
}

/** A revoked feed: its address answers 404 from the next fetch on. */
export class RevokedIcsFeedResponse extends IcsFeedResponse {
  @ApiProperty({ format: 'date-time' }) revoked_at: string;
}
