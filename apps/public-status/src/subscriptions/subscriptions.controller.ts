import { Body, Controller, Get, Header, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiReasons } from '@platform/api-docs';
import { Public } from '@platform/auth';
import { AcceptsBody, ApiEnvelope } from '@platform/envelope';
import { resolveLanguage } from '@platform/i18n';
import type { Request, Response } from 'express';
import { PublicStatusError } from '../status/public-status.errors';
import { SubscribeRequest, SubscriptionTokenQuery } from './dto/subscribe.request';
import { SubscribeResponse, SubscriptionStatusResponse } from './dto/subscribe.response';
import { SubscriptionsService } from './subscriptions.service';

/** Answers about one person's subscription: never cached by anyone. */
const NO_STORE = 'no-store';

@ApiTags('PublicStatus')
@Controller('PublicStatus')
export class SubscriptionsController {
  constructor(private readonly subscriptions: SubscriptionsService) {}

  @Public()
  @Post('Subscribe')
  @Header('Cache-Control', NO_STORE)
  @ApiOperation({
    summary:
      'Subscribe an email address (double opt-in: 202, the same answer for any address) or a webhook (201, its secret shown once)',
  })
  @ApiHeader({
    name: 'Language-Code',
    required: false,
    description:
      'Language of every mail this subscriber receives, and of the `error` text: en, ru, kk, uz, tr, es (then `Accept-Language`, then en)',
  })
  @ApiReasons(
    PublicStatusError.SUBSCRIPTION_TARGET,
    PublicStatusError.BUSINESS_NOT_FOUND,
    PublicStatusError.PRODUCT_NOT_FOUND,
    PublicStatusError.WEBHOOK_URL_REFUSED,
    PublicStatusError.SUBSCRIBERS_FULL,
    PublicStatusError.SUBSCRIPTIONS_OFF,
  )
  @ApiEnvelope(SubscribeResponse, { status: 202 })
  async subscribe(
    @Body() dto: SubscribeRequest,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ) {
    const out = await this.subscriptions.subscribe(dto, resolveLanguage(req.headers));
    res.status(out.kind === 'webhook' ? 201 : 202);
    return out;
  }

  @Public()
  @Get('Subscribe/confirm')
  @Header('Cache-Control', NO_STORE)
  @ApiOperation({
    operationId: 'confirmSubscription',
    summary: 'Confirm an email subscription (the mailed link; single use, expires)',
  })
  @ApiReasons(PublicStatusError.SUBSCRIPTION_TOKEN_INVALID, PublicStatusError.SUBSCRIPTIONS_OFF)
  @ApiEnvelope(SubscriptionStatusResponse)
  confirm(@Query() q: SubscriptionTokenQuery) {
    return this.subscriptions.confirm(q.token);
  }

  @Public()
  @Get('Unsubscribe')
  @Header('Cache-Control', NO_STORE)
  @ApiOperation({
    operationId: 'unsubscribe',
    summary: 'Unsubscribe (the link in every mail, or the token returned to a webhook)',
  })
  @ApiReasons(PublicStatusError.SUBSCRIPTION_TOKEN_INVALID, PublicStatusError.SUBSCRIPTIONS_OFF)
  @ApiEnvelope(SubscriptionStatusResponse)
  unsubscribe(@Query() q: SubscriptionTokenQuery) {
    return this.subscriptions.unsubscribe(q.token);
  }

  @Public()
  @Post('Unsubscribe')
  @HttpCode(200)
  // The body is the mail client's form (`List-Unsubscribe=One-Click`); the token is in the query.
  @AcceptsBody('application/x-www-form-urlencoded')
  @Header('Cache-Control', NO_STORE)
  @ApiOperation({
    operationId: 'oneClickUnsubscribe',
    summary: 'One-click unsubscribe (RFC 8058: mail clients POST `List-Unsubscribe=One-Click` here)',
  })
  @ApiReasons(PublicStatusError.SUBSCRIPTION_TOKEN_INVALID, PublicStatusError.SUBSCRIPTIONS_OFF)
  @ApiEnvelope(SubscriptionStatusResponse)
  oneClickUnsubscribe(@Query() q: SubscriptionTokenQuery) {
    return this.subscriptions.unsubscribe(q.token);
  }
}
