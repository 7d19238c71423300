import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope, list } from '@platform/envelope';
import { CasesError } from '../cases/cases.errors';
import { VerificationAccess, type OrganizationPrincipal } from '../tenancy/scopes';
import { GeneratedSummaryResponse, SummaryResponse } from './dto/summary.response';
import { SummaryError } from './summary.errors';
import { SummaryService } from './summary.service';
import { ApiVerificationCredentials } from '../access/access-headers';

const CASE_ID = { name: 'id', format: 'uuid', description: 'Identifier of the case' };

@ApiTags('Summary')
@ApiVerificationCredentials()
@Controller('api/v1/verification-cases')
export class SummaryController {
  constructor(private readonly summaries: SummaryService) {}

  @Post(':id/summary/generate')
  @HttpCode(200)
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('cases:write')
  @ApiOperation({
    operationId: 'generateSummary',
    summary:
      'Build a new version of the summary from the check steps and move the case: approve, decline, or manual review',
  })
  @ApiParam(CASE_ID)
  @ApiReasons(CasesError.NOT_FOUND, SummaryError.CASE_FINAL, SummaryError.CASE_AWAITING_APPLICANT)
  @ApiEnvelope(GeneratedSummaryResponse)
  generate(@CurrentPrincipal() p: OrganizationPrincipal, @Param('id') id: string) {
    return this.summaries.generate(p.ownerId, id);
  }

  @Get(':id/summary')
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('cases:read')
  @ApiOperation({ operationId: 'getSummary', summary: "The case's latest summary" })
  @ApiParam(CASE_ID)
  @ApiReasons(CasesError.NOT_FOUND, SummaryError.NOT_FOUND)
  @ApiEnvelope(SummaryResponse)
  latest(@CurrentPrincipal() p: OrganizationPrincipal, @Param('id') id: string) {
    return this.summaries.latest(p.ownerId, id);
  }

  @Get(':id/summary/versions')
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('cases:read')
  @ApiOperation({
    operationId: 'listSummaryVersions',
    summary: "Every version of the case's summary, newest first",
  })
  @ApiParam(CASE_ID)
  @ApiReasons(CasesError.NOT_FOUND)
  @ApiEnvelope(SummaryResponse, { list: true })
  async versions(@CurrentPrincipal() p: OrganizationPrincipal, @Param('id') id: string) {
    const { items, total } = await this.summaries.versions(p.ownerId, id);
    return list(items, total);
  }
}
