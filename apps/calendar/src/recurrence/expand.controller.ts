import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiCallerHeaders } from '../auth/api-headers';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope, ApiErrors } from '@platform/envelope';
import { CalendarAccess, type CalendarPrincipal } from '../auth/calendar.access';
import { CalendarError } from '../events/event.errors';
import { ExpandService, type ExpandView } from './expand.service';
import { ExpandResponse } from './dto/expand.response';
import { ExpandRequest } from './dto/expand.request';

const E = CalendarError;

/**
 * Occurrences of a recurring event. Addressing an event by its triple names entity ids, which a
 * busy-block caller may not see, so a product needs Read (FreeBusy is not enough); a person expands
 * the events they take part in.
 */
@ApiTags('Calendar')
@ApiCallerHeaders('product-or-person')
@Controller('Calendar')
export class ExpandController {
  constructor(private readonly expander: ExpandService) {}

  @Get('expand')
  @ApiReasons(
    E.INVALID_RANGE,
    E.EXPAND_CURSOR_INVALID,
    E.EVENT_NOT_FOUND,
    E.RECURRENCE_STORED_INVALID,
    E.GRANT_MISSING,
  )
  @CalendarAccess.Authenticated('product-key', 'platform-session')
  @CalendarAccess.RequireScopes('Read')
  @ApiOperation({
    summary: 'Occurrences of one event over a range (RFC 5545 recurrence)',
    description:
      'The event by its triple (product_id defaults to the caller’s product; a person must send it). Occurrences overlapping [from, to) (at most 366 days), in the event’s time zone (a 09:00 meeting stays 09:00 local across DST; the offset changes), with EXDATE/RDATE and overrides applied (cancelled ones are left out, moved ones are at their new time); a non-recurring event is its one occurrence. Pages of `limit` (default 100, at most 1000) with `next_cursor`; `total` counts the whole range up to 100,000. A product needs Read; a person may expand events they own or are assigned to (any other is 404).',
  })
  @ApiEnvelope(ExpandResponse)
  @ApiErrors(400, 401, 403, 404, 422)
  expand(@CurrentPrincipal() principal: CalendarPrincipal, @Query() q: ExpandRequest): Promise<ExpandView> {
    return this.expander.expand(principal, q);
  }
}
