import { Body, Controller, Get, HttpCode, Post, Query, Req, Res, UseInterceptors } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { ApiCallerHeaders, ApiSessionHeader } from '../auth/api-headers';
import type { Request, Response } from 'express';
import { CurrentPrincipal } from '@platform/auth';
import { ApiReasons } from '@platform/api-docs';
import { ApiEnvelope, ApiErrors, CommonError, list, requestIdOf } from '@platform/envelope';
import { CalendarAccess, type CalendarPrincipal, type ProductPrincipal } from '../auth/calendar.access';
import { WriteRateLimitInterceptor } from '../limits/write-rate-limit.interceptor';
import type { EventView } from './event.mapper';
import { EventsService, type RemoveResult } from './events.service';
import { CalendarError } from './event.errors';
import { EventsReadService } from './events-read.service';
import { EventsQueryRequest } from './dto/events-query.request';
import { ListByEntityRequest } from './dto/list-by-entity.request';
import { BusyBlockResponse, EventResponse } from './dto/event.response';
import { RemoveEventRequest, UpsertEventRequest } from './dto/upsert-event.request';

class RemoveResultResponse {
  @ApiProperty({ description: 'false when the event was already gone (a no-op)' }) removed: boolean;
  @ApiProperty({ nullable: true, type: Number, description: 'Version the event had' }) version: number | null;
  @ApiProperty({ nullable: true, type: Number, description: 'Journal cursor of the removal' }) cursor:
    number | null;
}

@ApiTags('Calendar')
@ApiCallerHeaders('product')
@Controller('Calendar')
export class EventsController {
  constructor(
    private readonly events: EventsService,
    private readonly reads: EventsReadService,
  ) {}

  @Post('upsert')
  @HttpCode(200)
  @ApiReasons(
    CalendarError.VERSION_CONFLICT,
    CalendarError.NOT_OWNER,
    CalendarError.ACCOUNT_NOT_FOUND,
    CalendarError.RECURRENCE_INVALID,
    CalendarError.RECURRENCE_OVERRIDE_INVALID,
    CommonError.RATE_LIMITED,
  )
  @CalendarAccess.Authenticated('product-key')
  @CalendarAccess.RequireScopes('Push')
  @UseInterceptors(WriteRateLimitInterceptor)
  @ApiOperation({
    summary: 'Create or update a product event by its identity triple',
    description:
      '201 created (version 1), 200 updated (version + 1). A stale `version` gets 409 with `value.current` (the event now) and `value.diff` (field, sent, current); the server never merges. Recurrence lines and overrides are checked against the start: 400 with `value.recurrence` (reason, line, part) when one does not fit.',
  })
  @ApiBody({
    type: UpsertEventRequest,
    examples: {
      timed: {
        value: {
          entity_type: 'deal',
          entity_id: 'D-1042',
          version: 0,
          title: 'Contract signing',
          start: { date_time: '2026-12-01T10:00:00+05:00', time_zone: 'Asia/Almaty' },
          end: { date_time: '2026-12-01T11:00:00+05:00', time_zone: 'Asia/Almaty' },
          owner: 'person-17',
          assignees: ['person-18'],
          resources: [{ type: 'room', id: 'room-301' }],
          metadata: { stage: 'negotiation' },
        },
      },
      allDay: {
        value: {
          entity_type: 'vacation',
          entity_id: 'V-7',
          version: 2,
          start: { date: '2026-12-24' },
          end: { date: '2026-12-27' },
        },
      },
    },
  })
  @ApiEnvelope(EventResponse, { status: 201, description: 'Created (version 1)' })
  @ApiEnvelope(EventResponse, { status: 200, description: 'Updated (version + 1)' })
  @ApiErrors(400, 401, 403, 404, 409, 429)
  async upsert(
    @CurrentPrincipal() principal: ProductPrincipal,
    @Body() body: UpsertEventRequest,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<EventView> {
    const { event, created, cursor } = await this.events.upsert(
      principal.accountId,
      principal.productId,
      body,
      requestIdOf(req),
    );
    res.status(created ? 201 : 200);
    res.setHeader('X-Journal-Cursor', String(cursor));
    return event;
  }

  @Post('remove')
  @HttpCode(200)
  @ApiReasons(CalendarError.VERSION_CONFLICT, CalendarError.NOT_OWNER, CommonError.RATE_LIMITED)
  @CalendarAccess.Authenticated('product-key')
  @CalendarAccess.RequireScopes('Push')
  @UseInterceptors(WriteRateLimitInterceptor)
  @ApiOperation({
    summary: 'Delete an event by its identity triple',
    description:
      'Only the owning product, with its own key. Already deleted: 200 with `removed: false`. Another product: 403.',
  })
  @ApiBody({
    type: RemoveEventRequest,
    examples: { byTriple: { value: { entity_type: 'deal', entity_id: 'D-1042' } } },
  })
  @ApiEnvelope(RemoveResultResponse)
  @ApiErrors(400, 401, 403, 409, 429)
  async remove(
    @CurrentPrincipal() principal: ProductPrincipal,
    @Body() body: RemoveEventRequest,
    @Req() req: Request,
  ): Promise<RemoveResult> {
    return this.events.remove(principal.accountId, principal.productId, body, requestIdOf(req));
  }

  @Get('listByEntity')
  @ApiReasons(CalendarError.FILTER_NEEDS_READ)
  @CalendarAccess.Authenticated('product-key')
  @CalendarAccess.RequireAnyScope('Read', 'FreeBusy')
  @ApiOperation({ summary: 'Events of one product entity, with the total (busy blocks only with FreeBusy)' })
  @ApiEnvelope(EventResponse, { list: true })
  @ApiErrors(400, 401, 403)
  async listByEntity(@CurrentPrincipal() principal: ProductPrincipal, @Query() q: ListByEntityRequest) {
    const { items, total } = await this.reads.byEntity(principal, q);
    return list(items, total);
  }

  @Get('events')
  @ApiReasons(CalendarError.INVALID_RANGE, CalendarError.FILTER_NEEDS_READ)
  @CalendarAccess.Authenticated('product-key', 'platform-session')
  @CalendarAccess.RequireAnyScope('Read', 'FreeBusy')
  @ApiSessionHeader()
  @ApiOperation({
    summary: 'Query behind personal and team views',
    description:
      "Filters: person, team, resource, product, status, text and an overlapping time range [from, to) of at most 366 days; sort by start or updated; offset/limit paging with the total. With a range, recurring events appear as their occurrences in it (each with `recurrence_id` and `series_id`), counted in the total. A product needs Read (FreeBusy gets busy blocks only); a person sees their own events and their teams' (others' private events as busy blocks).",
  })
  @ApiExtraModels(BusyBlockResponse)
  @ApiEnvelope([EventResponse, BusyBlockResponse], {
    list: true,
    description: 'Events, or busy blocks where the caller may not read details',
  })
  @ApiErrors(400, 401, 403)
  async search(@CurrentPrincipal() principal: CalendarPrincipal, @Query() q: EventsQueryRequest) {
    const { items, total } = await this.reads.search(principal, q);
    return list(items, total);
  }
}
