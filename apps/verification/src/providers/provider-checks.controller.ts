import { Body, Controller, Get, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope, list } from '@platform/envelope';
import { CasesError } from '../cases/cases.errors';
import { ChecksError } from '../checks/checks.errors';
import { VerificationAccess, type OrganizationPrincipal } from '../tenancy/scopes';
import { ProviderSessionResponse } from './dto/provider-session.response';
import { StartSessionRequest } from './dto/start-session.request';
import { ProviderChecksService } from './provider-checks.service';
import { ApiVerificationCredentials } from '../access/access-headers';

const CASE_ID = { name: 'id', format: 'uuid', description: 'Identifier of the case' };

@ApiTags('Provider checks')
@ApiVerificationCredentials()
@Controller('api/v1/verification-cases')
export class ProviderChecksController {
  constructor(private readonly providerChecks: ProviderChecksService) {}

  @Post(':id/provider-checks/start-session')
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('provider-checks:write')
  @ApiOperation({
    operationId: 'startProviderSession',
    summary:
      'Start a KYC (individual) or KYB (business) session with the identity provider; the sandbox answers the result at once',
  })
  @ApiParam(CASE_ID)
  @ApiReasons(CasesError.NOT_FOUND, ChecksError.CASE_FINAL, ChecksError.PROVIDER_UNAVAILABLE)
  @ApiEnvelope(ProviderSessionResponse, { status: 201 })
  start(
    @CurrentPrincipal() p: OrganizationPrincipal,
    @Param('id') id: string,
    @Body() body: StartSessionRequest,
  ) {
    return this.providerChecks.start(p.ownerId, id, body ?? {});
  }

  @Get(':id/provider-checks')
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('provider-checks:read')
  @ApiOperation({
    operationId: 'listProviderSessions',
    summary: "The case's provider sessions, oldest first",
  })
  @ApiParam(CASE_ID)
  @ApiReasons(CasesError.NOT_FOUND)
  @ApiEnvelope(ProviderSessionResponse, { list: true })
  async list(@CurrentPrincipal() p: OrganizationPrincipal, @Param('id') id: string) {
    const { items, total } = await this.providerChecks.list(p.ownerId, id);
    return list(items, total);
  }
}
