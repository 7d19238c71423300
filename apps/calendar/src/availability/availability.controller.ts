import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiCallerHeaders } from '../auth/api-headers';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope, ApiErrors, list } from '@platform/envelope';
import { CalendarAccess, type CalendarPrincipal } from '../auth/calendar.access';
import { CalendarError } from '../events/event.errors';
import { AvailabilityService, type FindSlotsView } from './availability.service';
import {
  ExcludedSlotResponse,
  FindSlotsResponse,
  FreeBusyItemResponse,
  SlotResponse,
} from './dto/availability.response';
import { FindSlotsRequest } from './dto/find-slots.request';
import { FreeBusyQueryRequest } from './dto/freebusy-query.request';

const E = CalendarError;

/**
 * Free/busy and meeting-slot search. Both are reads of busy time only (never titles, locations,
 * attendees or ids), so an integration needs FreeBusy or Read (Read shows strictly more, so it is
 * enough), and every person of the account may ask about any colleague or room of that account.
 */
@ApiTags('Calendar')
@ApiCallerHeaders('product-or-person')
@Controller('Calendar')
export class AvailabilityController {
  constructor(private readonly availability: AvailabilityService) {}

  @Get('freebusy')
  @ApiReasons(E.AVAILABILITY_INVALID_RANGE, E.AVAILABILITY_RANGE_TOO_LONG, E.AVAILABILITY_INVALID_PARTICIPANT)
  @CalendarAccess.Authenticated('product-key', 'platform-session')
  @CalendarAccess.RequireAnyScope('Read', 'FreeBusy')
  @ApiOperation({
    summary: 'Merged busy time of people and resources over a range',
    description:
      'For each person (owner or assignee) and resource (`type:id`), in the order asked: the busy intervals of [from, to), at most 62 days, merged and cut to the range. Confirmed events are `busy`, tentative ones `tentative` (busy wins where both), cancelled ones are ignored. No titles, locations, attendees or ids. A product needs FreeBusy or Read; a person sees the free/busy of anyone in their account.',
  })
  @ApiEnvelope(FreeBusyItemResponse, { list: true, description: 'One item per participant' })
  @ApiErrors(400, 401, 403)
  async freeBusy(@CurrentPrincipal() principal: CalendarPrincipal, @Query() q: FreeBusyQueryRequest) {
    const { items, total } = await this.availability.freeBusy(principal, q);
    return list(items, total);
  }

  @Post('findSlots')
  @HttpCode(200)
  @ApiReasons(
    E.AVAILABILITY_INVALID_RANGE,
    E.AVAILABILITY_RANGE_TOO_LONG,
    E.AVAILABILITY_TOO_MANY_INTERVALS,
    E.AVAILABILITY_INVALID_TIME_ZONE,
    E.AVAILABILITY_INVALID_WORKING_HOURS,
    E.AVAILABILITY_INVALID_WALL_TIME,
    E.AVAILABILITY_EMPTY_SPAN,
    E.AVAILABILITY_OVERLAPPING_SPANS,
    E.AVAILABILITY_INVALID_PARTICIPANT,
    E.AVAILABILITY_DUPLICATE_PARTICIPANT,
    E.AVAILABILITY_TOO_MANY_PARTICIPANTS,
    E.AVAILABILITY_INVALID_DURATION,
    E.AVAILABILITY_INVALID_BUFFER,
    E.AVAILABILITY_INVALID_GRANULARITY,
    E.AVAILABILITY_INVALID_MAX_RESULTS,
    E.AVAILABILITY_INVALID_CURSOR,
  )
  @CalendarAccess.Authenticated('product-key', 'platform-session')
  @CalendarAccess.RequireAnyScope('Read', 'FreeBusy')
  @ApiOperation({
    summary: 'Meeting slots at which every required participant is free',
    description:
      'Candidate starts every granularity_minutes on a grid from midnight UTC, within a range of at most 31 days. A slot needs every required participant free for it and its buffers (tentative time blocks unless tentative_as_free) and within their working hours (their time zone, DST followed). Ranked: more optional participants free first, then earliest; every slot is reachable through next_cursor. With explain, the rejected starts and who rules each out. A read: no write limit.',
  })
  @ApiBody({
    type: FindSlotsRequest,
    examples: {
      meeting: {
        value: {
          participants: [
            {
              kind: 'person',
              id: 'person-17',
              working_hours: {
                time_zone: 'Europe/Berlin',
                days: {
                  mon: [{ start: '09:00', end: '17:00' }],
                  tue: [{ start: '09:00', end: '17:00' }],
                },
              },
            },
            { kind: 'person', id: 'person-18', required: false },
            { kind: 'resource', id: 'room:r-301' },
          ],
          duration_minutes: 30,
          range: { from: '2026-12-07T00:00:00Z', to: '2026-12-09T00:00:00Z' },
          buffer_before_minutes: 10,
          granularity_minutes: 15,
          max_results: 20,
        },
      },
    },
  })
  @ApiExtraModels(SlotResponse, ExcludedSlotResponse)
  @ApiEnvelope(FindSlotsResponse)
  @ApiErrors(400, 401, 403)
  findSlots(
    @CurrentPrincipal() principal: CalendarPrincipal,
    @Body() body: FindSlotsRequest,
  ): Promise<FindSlotsView> {
    return this.availability.findSlots(principal, body);
  }
}
