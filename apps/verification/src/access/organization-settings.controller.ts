import { Body, Controller, Get, Put, Req } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope } from '@platform/envelope';
import { VerificationAccess, type OrganizationPrincipal } from '../tenancy/scopes';
import { ApiVerificationCredentials } from './access-headers';
import { AccessError } from './access.errors';
import { IpAllowlistResponse, PutIpAllowlistRequest } from './dto/ip-allowlist.dto';
import { IpAllowlistService } from './ip-allowlist.service';

@ApiTags('Organization settings')
@ApiVerificationCredentials()
@Controller('api/v1/organization/settings')
export class OrganizationSettingsController {
  constructor(private readonly allowlist: IpAllowlistService) {}

  @Get('ip-allowlist')
  @VerificationAccess.Authenticated('api-key', 'oauth')
  @VerificationAccess.RequireScopes('settings:manage')
  @ApiOperation({
    operationId: 'getIpAllowlist',
    summary: "The organization's IP allowlist (empty: no restriction)",
  })
  @ApiEnvelope(IpAllowlistResponse)
  get(@CurrentPrincipal() p: OrganizationPrincipal) {
    return this.allowlist.get(p.ownerId);
  }

  @Put('ip-allowlist')
  @VerificationAccess.Authenticated('api-key', 'oauth')
  @VerificationAccess.RequireScopes('settings:manage')
  @ApiOperation({
    operationId: 'putIpAllowlist',
    summary:
      'Replace the IP allowlist (IPv4/IPv6 CIDR blocks, at most 100); it must include your own address',
  })
  @ApiReasons(AccessError.IP_ALLOWLIST_INVALID, AccessError.IP_ALLOWLIST_LOCKOUT)
  @ApiEnvelope(IpAllowlistResponse)
  put(
    @CurrentPrincipal() p: OrganizationPrincipal,
    @Body() body: PutIpAllowlistRequest,
    @Req() req: Request,
  ) {
    return this.allowlist.put(p.ownerId, body.ipAllowlist, this.allowlist.addressOf(req));
  }
}
