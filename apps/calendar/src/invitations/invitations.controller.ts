import { Body, Controller, HttpCode, Post, Req, Res, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { ApiAccountHeader, ApiLanguageHeader, ApiOptionalProductHeader } from '../auth/api-headers';
import type { Request, Response } from 'express';
import { CurrentPrincipal } from '@platform/auth';
import { ApiReasons } from '@platform/api-docs';
import { ApiEnvelope, ApiErrors, CommonError, requestIdOf } from '@platform/envelope';
import {
  CalendarAccess,
  type GuestPrincipal,
  type PersonPrincipal,
  type ProductPrincipal,
} from '../auth/calendar.access';
import { CalendarError } from '../events/event.errors';
import { AttendeeResponse } from '../events/dto/event.response';
import { WriteRateLimitInterceptor } from '../limits/write-rate-limit.interceptor';
import { InviteRequest, RsvpRequest } from './dto/invitations.request';
import { InvitationsService } from './invitations.service';

class InvitedAttendeeResponse extends AttendeeResponse {
  @ApiPropertyOptional({ description: 'For a guest (kind email): the token of their signed rsvp link' })
  rsvp_token?: string;
}

class InviteResponse {
  @ApiProperty({ format: 'uuid' }) event_id: string;
  @ApiProperty() version: number;
  @ApiProperty({ type: [InvitedAttendeeResponse] }) attendees: InvitedAttendeeResponse[];
}

class RsvpResponse {
  @ApiProperty({ format: 'uuid' }) event_id: string;
  @ApiProperty() version: number;
  @ApiProperty({ type: AttendeeResponse }) attendee: AttendeeResponse;
}

const journalCursor = (res: Response, cursor: number | null) => {
  if (cursor !== null) res.setHeader('X-Journal-Cursor', String(cursor));
};

@ApiTags('Calendar')
@ApiLanguageHeader()
@Controller('Calendar')
export class InvitationsController {
  constructor(private readonly invitations: InvitationsService) {}

  @Post('invite')
  @HttpCode(200)
  @ApiReasons(
    CalendarError.EVENT_NOT_FOUND,
    CalendarError.NOT_OWNER,
    CalendarError.NOT_EVENT_OWNER,
    CalendarError.VERSION_CONFLICT,
    CalendarError.TOO_MANY_ATTENDEES,
    CommonError.RATE_LIMITED,
  )
  @CalendarAccess.Authenticated('product-key', 'platform-session')
  @CalendarAccess.RequireAnyScope('Push', 'EditOwnEvents')
  @UseInterceptors(WriteRateLimitInterceptor)
  @ApiAccountHeader()
  @ApiOptionalProductHeader()
  @ApiOperation({
    summary: 'Invite people and guests to an event',
    description:
      'People by person id, guests by email. New attendees start at NEEDS-ACTION; inviting again keeps the answer. A change bumps the version, is journaled and emits `calendar.event.changed.v1`. Each guest gets an `rsvp_token` for their reply link.',
  })
  @ApiBody({
    type: InviteRequest,
    examples: {
      mixed: {
        value: {
          entity_type: 'deal',
          entity_id: 'D-1042',
          attendees: [
            { kind: 'person', id: 'person-18' },
            { kind: 'email', email: 'guest@example.com', role: 'OPT-PARTICIPANT' },
          ],
        },
      },
    },
  })
  @ApiEnvelope(InviteResponse)
  @ApiErrors(400, 401, 403, 404, 409, 429)
  async invite(
    @CurrentPrincipal() principal: ProductPrincipal | PersonPrincipal,
    @Body() body: InviteRequest,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { cursor, ...result } = await this.invitations.invite(principal, body, requestIdOf(req));
    journalCursor(res, cursor);
    return result;
  }

  @Post('rsvp')
  @HttpCode(200)
  @ApiReasons(
    CalendarError.RSVP_TOKEN_INVALID,
    CalendarError.RSVP_TOKEN_EXPIRED,
    CalendarError.NOT_INVITED,
    CalendarError.EVENT_NOT_FOUND,
  )
  @CalendarAccess.Authenticated('platform-session', 'rsvp-token')
  @CalendarAccess.NoScopeRequired(
    'an attendee answers only for themselves: a person as an invited attendee, a guest through the signed token of their own invitation',
  )
  @ApiOperation({
    summary: 'Answer an invitation',
    description:
      'An invited person with their PlatformSession names the event by its triple; an external guest sends the `rsvp_token` of their invitation and no credentials. Answers are iCalendar PARTSTAT values; a change bumps the version.',
  })
  @ApiBody({
    type: RsvpRequest,
    examples: {
      guest: { value: { token: 'v1.WyJhY21lIiwi...', answer: 'ACCEPTED', comment: 'See you there' } },
    },
  })
  @ApiEnvelope(RsvpResponse)
  @ApiErrors(400, 401, 403, 404)
  async rsvp(
    @CurrentPrincipal() principal: PersonPrincipal | GuestPrincipal,
    @Body() body: RsvpRequest,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { cursor, ...result } = await this.invitations.rsvp(principal, body, requestIdOf(req));
    journalCursor(res, cursor);
    return result;
  }
}
