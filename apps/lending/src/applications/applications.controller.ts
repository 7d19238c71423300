import { Controller, Get, Query } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope, list } from '@platform/envelope';
import { LendingAccess, type PartnerPrincipal } from '../tenancy/scopes';
import { ApplicationsService } from './applications.service';
import { GetApplicationsRequest } from './dto/get-applications.request';
import { ApplicationResponse } from './dto/application.response';

@ApiTags('Applications')
@ApiHeader({ name: 'X-Api-Key', required: true })
@ApiHeader({
  name: 'Organization-Id',
  required: true,
  description: 'Your organization: the owner of the key',
})
@ApiHeader({
  name: 'Language-Code',
  required: false,
  description: 'Language of the `error` text: en, ru, kk, uz, tr, es',
})
@Controller('Applications')
export class ApplicationsController {
  constructor(private readonly applications: ApplicationsService) {}

  @Get('GetApplications')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('applications:read')
  @ApiOperation({ summary: 'Paged list of applications with the total count' })
  @ApiEnvelope(ApplicationResponse, { list: true })
  async getApplications(@CurrentPrincipal() p: PartnerPrincipal, @Query() q: GetApplicationsRequest) {
    const { items, total } = await this.applications.page(p.ownerId, q);
    return list(items, total);
  }
}
