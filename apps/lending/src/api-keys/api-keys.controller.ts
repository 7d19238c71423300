import { LendingApi } from '../common/lending-api';
import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope, ShowsSecret, list } from '@platform/envelope';
import { LendingAccess, type PartnerPrincipal } from '../tenancy/scopes';
import { ApiKeysError } from './api-keys.errors';
import { ApiKeysService } from './api-keys.service';
import { GetKeyRequestsRequest, GetKeysRequest } from './dto/get-keys.request';
import { IssueKeyRequest } from './dto/issue-key.request';
import { IssuedKeyResponse, KeyRequestResponse, KeyResponse, ReissuedKeyResponse } from './dto/key.response';
import { ReissueKeyRequest } from './dto/reissue-key.request';
import { RevokeKeyRequest } from './dto/revoke-key.request';

@LendingApi('ApiKeys')
@Controller('ApiKeys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Post('IssueKey')
  @ShowsSecret()
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('keys:admin')
  @ApiOperation({
    summary: 'Issue a key of your organization with scopes your key holds; its secret is shown once',
  })
  @ApiReasons(ApiKeysError.SCOPE_ESCALATION, ApiKeysError.LIMIT_REACHED)
  @ApiEnvelope(IssuedKeyResponse, { status: 201 })
  issueKey(@CurrentPrincipal() p: PartnerPrincipal, @Body() body: IssueKeyRequest) {
    return this.keys.issue(p, body);
  }

  @Post('ReissueKey')
  @ShowsSecret()
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('keys:admin')
  @ApiOperation({
    summary: 'Replace a key: the new one works at once, the old one until the overlap ends',
  })
  @ApiReasons(
    ApiKeysError.NOT_FOUND,
    ApiKeysError.NOT_LIVE,
    ApiKeysError.SCOPE_ESCALATION,
    ApiKeysError.LIMIT_REACHED,
  )
  @ApiEnvelope(ReissuedKeyResponse, { status: 201 })
  reissueKey(@CurrentPrincipal() p: PartnerPrincipal, @Body() body: ReissueKeyRequest) {
    return this.keys.reissue(p, body);
  }

  @Post('RevokeKey')
  @HttpCode(200)
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('keys:admin')
  @ApiOperation({ summary: 'Stop a key now (a revoked key stays revoked)' })
  @ApiReasons(ApiKeysError.NOT_FOUND)
  @ApiEnvelope(KeyResponse)
  revokeKey(@CurrentPrincipal() p: PartnerPrincipal, @Body() body: RevokeKeyRequest) {
    return this.keys.revoke(p, body.keyId);
  }

  @Get('GetKeys')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireAnyScope('keys:read', 'keys:admin')
  @ApiOperation({ summary: "Paged list of your organization's keys, newest first, without secrets" })
  @ApiEnvelope(KeyResponse, { list: true })
  async getKeys(@CurrentPrincipal() p: PartnerPrincipal, @Query() q: GetKeysRequest) {
    const { items, total } = await this.keys.page(p, q);
    return list(items, total);
  }

  @Get('GetKeyRequests')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireAnyScope('keys:read', 'keys:admin')
  @ApiOperation({ summary: "A key's request log, newest first" })
  @ApiReasons(ApiKeysError.NOT_FOUND)
  @ApiEnvelope(KeyRequestResponse, { list: true })
  async getKeyRequests(@CurrentPrincipal() p: PartnerPrincipal, @Query() q: GetKeyRequestsRequest) {
    const { items, total } = await this.keys.requestsOf(p, q);
    return list(items, total);
  }
}
