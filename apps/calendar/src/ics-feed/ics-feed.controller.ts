import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiReasons } from '@platform/api-docs';
import { Public } from '@platform/auth';
import { RawResponse } from '@platform/envelope';
import { ApiLanguageHeader } from '../auth/api-headers';
import { IcsFeedError } from './ics-feed.errors';
import { IcsFeedService } from './ics-feed.service';
import { noneMatch } from './feed-etag';

/**
 * Shared caches keep nothing (the feed is someone's calendar, and a revoke must hold at once); a
 * client keeps it and asks again with If-None-Match, which costs a 304.
 */
const CACHE_CONTROL = 'private, no-cache';

/** The ICS subscription feed itself: public, because the token in the path is the credential. */
@ApiTags('ICS subscription feeds')
@ApiLanguageHeader()
@Controller('Calendar')
export class IcsFeedController {
  constructor(private readonly feeds: IcsFeedService) {}

  @Get('ics/:token')
  // No credential header: calendar clients subscribing "from URL" send none; the token is checked here.
  @Public()
  @RawResponse()
  @ApiOperation({
    operationId: 'getIcsFeed',
    summary: 'An ICS subscription feed (RFC 5545), read-only, for calendar clients',
    description:
      'The token is the credential: anyone holding the address reads the feed, so treat it like a password. The feed spans 90 days back to a year ahead; recurring events come as their series. `ETag` and `If-None-Match` (304) let a client fetch again cheaply; `REFRESH-INTERVAL` asks it to every hour. An unknown, malformed or revoked token: 404, the same answer for all.',
  })
  @ApiParam({ name: 'token', description: 'The feed token from the address shown when it was created' })
  @ApiProduces('text/calendar')
  @ApiOkResponse({
    description: 'An iCalendar document (text/calendar; charset=utf-8)',
    schema: { type: 'string' },
  })
  @ApiResponse({ status: 304, description: 'Unchanged since the ETag sent in If-None-Match' })
  @ApiReasons(IcsFeedError.TOKEN_NOT_FOUND)
  async feed(@Param('token') token: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    const { body, etag } = await this.feeds.answer(token);
    res.setHeader('ETag', etag);
    res.setHeader('Cache-Control', CACHE_CONTROL);
    if (noneMatch(req.headers['if-none-match'], etag)) {
      res.status(304).end();
      return;
    }
    res.status(200).type('text/calendar; charset=utf-8').send(body);
  }
}
