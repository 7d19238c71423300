import { Body, Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope, ShowsSecret, list } from '@platform/envelope';
import { ApiLanguageHeader } from '../auth/api-headers';
import { CalendarAccess, type PersonPrincipal } from '../auth/calendar.access';
import { IcsFeedError } from './ics-feed.errors';
import { IcsFeedsService } from './ics-feeds.service';
import { CreateIcsFeedRequest } from './dto/create-ics-feed.request';
import { CreatedIcsFeedResponse, IcsFeedResponse, RevokedIcsFeedResponse } from './dto/ics-feed.response';

/**
 * A person's ICS subscription feeds, with their session only: a product key cannot make one. Read or
 * FreeBusy as the events view asks of a person (every person holds both); the service limits each
 * person to their own feeds and to the views the JSON query would show them.
 */
@ApiTags('ICS subscription feeds')
@ApiLanguageHeader()
@Controller('Calendar')
export class IcsFeedsController {
  constructor(private readonly feeds: IcsFeedsService) {}

  @Post('ics-feeds')
  @ShowsSecret()
  @CalendarAccess.Authenticated('platform-session')
  @CalendarAccess.RequireAnyScope('Read', 'FreeBusy')
  @ApiOperation({
    summary: 'Create an ICS subscription feed; its address is shown once',
    description:
      'Subscribe to `url` in Google Calendar (Other calendars, From URL), Outlook (Add calendar, Subscribe from web) or Apple Calendar (`webcal_url`). The feed shows your own events, a team you belong to, or a resource, as the events view shows them to you: other people’s private events as busy blocks. Only a hash of the token is kept: the address cannot be shown again.',
  })
  @ApiReasons(IcsFeedError.NOT_TEAM_MEMBER, IcsFeedError.LIMIT_REACHED)
  @ApiEnvelope(CreatedIcsFeedResponse, { status: 201 })
  create(@CurrentPrincipal() p: PersonPrincipal, @Body() body: CreateIcsFeedRequest) {
    return this.feeds.create(p, body);
  }

  @Get('ics-feeds')
  @CalendarAccess.Authenticated('platform-session')
  @CalendarAccess.RequireAnyScope('Read', 'FreeBusy')
  @ApiOperation({ summary: 'Your active ICS feeds, newest first, without their tokens' })
  @ApiEnvelope(IcsFeedResponse, { list: true })
  async list(@CurrentPrincipal() p: PersonPrincipal) {
    const items = await this.feeds.list(p);
    return list(items, items.length);
  }

  @Delete('ics-feeds/:id')
  @CalendarAccess.Authenticated('platform-session')
  @CalendarAccess.RequireAnyScope('Read', 'FreeBusy')
  @ApiOperation({ summary: 'Revoke an ICS feed: its address answers 404 from the next fetch on' })
  @ApiParam({ name: 'id', format: 'uuid', description: 'Identifier of the feed' })
  @ApiReasons(IcsFeedError.FEED_NOT_FOUND)
  @ApiEnvelope(RevokedIcsFeedResponse)
  revoke(@CurrentPrincipal() p: PersonPrincipal, @Param('id') id: string) {
    return this.feeds.revoke(p, id);
  }
}
