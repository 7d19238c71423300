import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope } from '@platform/envelope';
import { VerificationAccess, type OrganizationPrincipal } from '../tenancy/scopes';
import { ApiVerificationCredentials } from './access-headers';
import { UsageRequest, UsageResponse } from './dto/usage.dto';
import { UsageService } from './usage.service';

@ApiTags('Activity and usage')
@ApiVerificationCredentials()
@Controller('api/v1/usage')
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @Get()
  @VerificationAccess.Authenticated('api-key', 'oauth')
  @VerificationAccess.RequireScopes('usage:read')
  @ApiOperation({
    operationId: 'getUsage',
    summary: 'Checks and other counted operations of one calendar month (UTC)',
  })
  @ApiEnvelope(UsageResponse)
  get(@CurrentPrincipal() p: OrganizationPrincipal, @Query() q: UsageRequest) {
    return this.usage.of(p.ownerId, q.month);
  }
}
