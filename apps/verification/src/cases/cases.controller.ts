import { Controller, Get, Query } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope, list } from '@platform/envelope';
import { VerificationAccess, type OrganizationPrincipal } from '../tenancy/scopes';
import { CasesService } from './cases.service';
import { ListCasesRequest } from './dto/list-cases.request';
import { CaseResponse } from './dto/case.response';

@ApiTags('Verification cases')
@ApiHeader({ name: 'X-API-Key', required: true })
@ApiHeader({
  name: 'Service-Organization-Id',
  required: true,
  description: 'Your organization: the owner of the key',
})
@ApiHeader({
  name: 'Accept-Language',
  required: false,
  description: 'Language of the `error` text (`Language-Code` also works)',
})
@Controller('api/v1/verification-cases')
export class CasesController {
  constructor(private readonly cases: CasesService) {}

  @Get()
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('cases:read')
  @ApiOperation({ summary: 'Find cases, e.g. by externalReferenceId, with the total count' })
  @ApiEnvelope(CaseResponse, { list: true })
  async list(@CurrentPrincipal() p: OrganizationPrincipal, @Query() q: ListCasesRequest) {
    const { items, total } = await this.cases.list(p.ownerId, q);
    return list(items, total);
  }
}
