import { Controller, Get, Param } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope, list } from '@platform/envelope';
import { CasesError } from '../cases/cases.errors';
import { VerificationAccess, type OrganizationPrincipal } from '../tenancy/scopes';
import { ChecksService } from './checks.service';
import { CheckStepResponse } from './dto/check-step.response';
import { ApiVerificationCredentials } from '../access/access-headers';

@ApiTags('Checks')
@ApiVerificationCredentials()
@Controller('api/v1/verification-cases')
export class ChecksController {
  constructor(private readonly checks: ChecksService) {}

  @Get(':id/checks')
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('cases:read')
  @ApiOperation({
    operationId: 'listCheckSteps',
    summary: 'Every stored check step of the case: outcome, rule, evidence, document, time; oldest first',
  })
  @ApiParam({ name: 'id', format: 'uuid', description: 'Identifier of the case' })
  @ApiReasons(CasesError.NOT_FOUND)
  @ApiEnvelope(CheckStepResponse, { list: true })
  async list(@CurrentPrincipal() p: OrganizationPrincipal, @Param('id') id: string) {
    const { items, total } = await this.checks.ofCase(p.ownerId, id);
    return list(items, total);
  }
}
