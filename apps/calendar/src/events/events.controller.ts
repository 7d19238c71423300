import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Authenticated, CurrentPrincipal } from '@platform/auth';
import { requestIdOf } from '@platform/envelope';
import type { ProductPrincipal } from '../auth/calendar.guard';
import { CalendarError, calendarError } from './event.errors';
import { EventsService } from './events.service';
import { EventResponse } from './dto/event.response';
import { UpsertEventRequest } from './dto/upsert-event.request';

@ApiTags('Calendar')
@ApiHeader({ name: 'API_KEY', required: true, description: 'Product key' })
@ApiHeader({ name: 'AccountId', required: true })
@ApiHeader({ name: 'ProductId', required: true })
@ApiHeader({ name: 'Language-Code', required: false, description: 'en, ru, kk, uz, tr, es' })
@Controller('Calendar')
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Post('upsert')
  @HttpCode(200)
  @Authenticated('product-key')
  @ApiOperation({
    summary:
      'Create or update a product event by its identity triple (201 created, 200 updated, 409 stale version)',
  })
  @ApiBody({ type: UpsertEventRequest })
  async upsert(
    @CurrentPrincipal() principal: ProductPrincipal,
    @Body() body: UpsertEventRequest,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<EventResponse> {
    if (body.product_id !== undefined && body.product_id !== principal.productId) {
      throw calendarError(CalendarError.PRODUCT_MISMATCH);
    }
    const { event, created } = await this.events.upsert(
      principal.accountId,
      principal.productId,
      body,
      requestIdOf(req),
    );
    res.status(created ? 201 : 200);
    return EventResponse.from(event);
  }
}
