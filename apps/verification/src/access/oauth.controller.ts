import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public, headerValue } from '@platform/auth';
import { AcceptsAnyBody, RawResponse, ShowsSecret } from '@platform/envelope';
import { OAuthErrorResponse, OAuthTokenRequest, OAuthTokenResponse } from './dto/oauth-token.dto';
import { IpAllowlistService } from './ip-allowlist.service';
import type { RequestWithOAuthForm } from './oauth-form.middleware';
import { OAuthService } from './oauth.service';

/**
 * The one route that answers in OAuth's shape (RFC 6749 sections 5.1 and 5.2) instead of the envelope:
 * OAuth client libraries read `access_token` or `error` at the top level, and the spec asks for a
 * standard client credentials exchange.
 */
@ApiTags('OAuth')
@Controller('api/v1/oauth')
export class OAuthController {
  constructor(
    private readonly oauth: OAuthService,
    private readonly allowlist: IpAllowlistService,
  ) {}

  @Post('token')
  // RFC 6749 5.1: the token answer is never cached (errors too; the handler sets it on every answer).
  @ShowsSecret()
  @Public()
  @RawResponse()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'getToken',
    summary:
      'Exchange an API key for a short-lived bearer token (OAuth 2.0 client credentials, RFC 6749 4.4): client_id = organization id, client_secret = API key',
  })
  // Its own RFC 6749 5.2 `invalid_request` for a body that is not a form, as OAuth clients expect.
  @AcceptsAnyBody('application/x-www-form-urlencoded')
  @ApiBody({ type: OAuthTokenRequest })
  @ApiResponse({ status: 200, type: OAuthTokenResponse, description: 'RFC 6749 5.1 (not the envelope)' })
  @ApiResponse({ status: 400, type: OAuthErrorResponse, description: 'RFC 6749 5.2 (not the envelope)' })
  @ApiResponse({
    status: 401,
    type: OAuthErrorResponse,
    description: 'RFC 6749 5.2 `invalid_client`: unknown organization or key (not the envelope)',
  })
  @ApiResponse({
    status: 403,
    type: OAuthErrorResponse,
    description: 'RFC 6749 5.2: the caller is outside the IP allowlist (not the envelope)',
  })
  async token(@Req() req: RequestWithOAuthForm, @Res() res: Response): Promise<void> {
    const answer = await this.oauth.exchange({
      authorization: headerValue(req.headers, 'authorization'),
      contentType: headerValue(req.headers, 'content-type'),
      form: req.oauthForm,
      address: this.allowlist.addressOf(req),
    });
    res
      .status(answer.status)
      .set({ 'Cache-Control': 'no-store', Pragma: 'no-cache', ...answer.headers })
      .json(answer.body);
  }
}
