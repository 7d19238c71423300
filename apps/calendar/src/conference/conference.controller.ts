import { Body, Controller, HttpCode, Post, Req, Res, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiAccountHeader, ApiLanguageHeader, ApiOptionalProductHeader } from '../auth/api-headers';
import type { Request, Response } from 'express';
import { CurrentPrincipal } from '@platform/auth';
import { ApiReasons } from '@platform/api-docs';
import { ApiEnvelope, ApiErrors, CommonError, requestIdOf } from '@platform/envelope';
import { CalendarAccess, type PersonPrincipal, type ProductPrincipal } from '../auth/calendar.access';
import { CalendarError } from '../events/event.errors';
import type { EventView } from '../events/event.mapper';
import { EventResponse } from '../events/dto/event.response';
import { WriteRateLimitInterceptor } from '../limits/write-rate-limit.interceptor';
import { ConferenceService } from './conference.service';
import { AttachConferenceRequest } from './dto/attach-conference.request';

@ApiTags('Calendar')
@ApiAccountHeader()
@ApiLanguageHeader()
@Controller('Calendar')
export class ConferenceController {
  constructor(private readonly conference: ConferenceService) {}

  @Post('attachConference')
  @HttpCode(200)
  @ApiReasons(
    CalendarError.EVENT_NOT_FOUND,
    CalendarError.NOT_OWNER,
    CalendarError.NOT_EVENT_OWNER,
    CalendarError.VERSION_CONFLICT,
    CommonError.RATE_LIMITED,
  )
  @CalendarAccess.Authenticated('product-key', 'platform-session')
  @CalendarAccess.RequireAnyScope('Push', 'EditOwnEvents')
  @UseInterceptors(WriteRateLimitInterceptor)
  @ApiOptionalProductHeader()
  @ApiOperation({
    summary: 'Attach a conference room to an event',
    description:
      'Idempotent: the first call creates the room and stores it on the event (version + 1, journaled, `calendar.event.changed.v1`); later calls return the same room and change nothing. The owning product (Push) or the person who owns the event (then `product_id` is required).',
  })
  @ApiBody({
    type: AttachConferenceRequest,
    examples: { byTriple: { value: { entity_type: 'deal', entity_id: 'D-1042', version: 3 } } },
  })
  @ApiEnvelope(EventResponse, { description: 'The event with its `conference`' })
  @ApiErrors(400, 401, 403, 404, 409, 429)
  async attach(
    @CurrentPrincipal() principal: ProductPrincipal | PersonPrincipal,
    @Body() body: AttachConferenceRequest,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<EventView> {
    const { event, cursor } = await this.conference.attach(principal, body, requestIdOf(req));
    if (cursor !== null) res.setHeader('X-Journal-Cursor', String(cursor));
    return event;
  }
}
