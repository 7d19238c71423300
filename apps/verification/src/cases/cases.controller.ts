import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import {
  IDEMPOTENCY_REASONS,
  Idempotency,
  IdempotentOperation,
  type IdempotentRequest,
} from '@platform/idempotency';
import { ApiEnvelope, list } from '@platform/envelope';
import { VerificationAccess, type OrganizationPrincipal } from '../tenancy/scopes';
import { CasesError } from './cases.errors';
import { CasesService } from './cases.service';
import { CreateCaseRequest } from './dto/create-case.request';
import { ListCasesRequest } from './dto/list-cases.request';
import { CaseResponse, CaseStatusChangeResponse, CreatedCaseResponse } from './dto/case.response';
import { ApiVerificationCredentials } from '../access/access-headers';

const CASE_ID = { name: 'id', format: 'uuid', description: 'Identifier of the case' };

@ApiTags('Verification cases')
@ApiVerificationCredentials()
@Controller('api/v1/verification-cases')
export class CasesController {
  constructor(private readonly cases: CasesService) {}

  @Post()
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('cases:write')
  @IdempotentOperation(
    'Your unique value per case (e.g. a UUID), kept 24 hours per organization: a repeat returns the case already created',
  )
  @ApiOperation({
    operationId: 'createCase',
    summary: 'Create a check in status AwaitingApplicant, with the borrower upload link',
  })
  @ApiReasons(...IDEMPOTENCY_REASONS)
  @ApiEnvelope(CreatedCaseResponse, { status: 201 })
  create(
    @CurrentPrincipal() p: OrganizationPrincipal,
    @Idempotency() key: IdempotentRequest,
    @Body() body: CreateCaseRequest,
  ) {
    return this.cases.create(p.ownerId, key, body);
  }

  @Get()
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('cases:read')
  @ApiOperation({
    operationId: 'findCases',
    summary: 'Find cases, e.g. by externalReferenceId, with the total count',
  })
  @ApiEnvelope(CaseResponse, { list: true })
  async list(@CurrentPrincipal() p: OrganizationPrincipal, @Query() q: ListCasesRequest) {
    const { items, total } = await this.cases.list(p.ownerId, q);
    return list(items, total);
  }

  @Get(':id')
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('cases:read')
  @ApiOperation({ operationId: 'getCase', summary: 'One case' })
  @ApiParam(CASE_ID)
  @ApiReasons(CasesError.NOT_FOUND)
  @ApiEnvelope(CaseResponse)
  get(@CurrentPrincipal() p: OrganizationPrincipal, @Param('id') id: string) {
    return this.cases.get(p.ownerId, id);
  }

  @Get(':id/history')
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('cases:read')
  @ApiOperation({ operationId: 'getCaseHistory', summary: "The case's status moves, oldest first" })
  @ApiParam(CASE_ID)
  @ApiReasons(CasesError.NOT_FOUND)
  @ApiEnvelope(CaseStatusChangeResponse, { list: true })
  async history(@CurrentPrincipal() p: OrganizationPrincipal, @Param('id') id: string) {
    const { items, total } = await this.cases.statusHistory(p.ownerId, id);
    return list(items, total);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('cases:write')
  @ApiOperation({ operationId: 'cancelCase', summary: 'Cancel a case that has not reached a final status' })
  @ApiParam(CASE_ID)
  @ApiReasons(CasesError.NOT_FOUND, CasesError.TRANSITION_NOT_ALLOWED)
  @ApiEnvelope(CaseResponse)
  cancel(@CurrentPrincipal() p: OrganizationPrincipal, @Param('id') id: string) {
    return this.cases.cancel(p.ownerId, id);
  }
}
