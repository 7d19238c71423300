import { Controller, Get, Query } from '@nestjs/common';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Authenticated, CurrentPrincipal, RequireScopes } from '@platform/auth';
import { list } from '@platform/envelope';
import type { PartnerPrincipal } from '../auth/lending.guard';
import { ApplicationsRepository } from './applications.repository';
import { GetApplicationsRequest } from './dto/get-applications.request';

@ApiTags('Applications')
@ApiHeader({ name: 'X-Api-Key', required: true })
@ApiHeader({ name: 'Organization-Id', required: true })
@ApiHeader({ name: 'Language-Code', required: false })
@Controller('Applications')
export class ApplicationsController {
  constructor(private readonly applications: ApplicationsRepository) {}

  @Get('GetApplications')
  @Authenticated('partner-key')
  @RequireScopes('applications:read')
  @ApiOperation({ summary: 'Paged list of applications with the total count' })
  async getApplications(@CurrentPrincipal() p: PartnerPrincipal, @Query() q: GetApplicationsRequest) {
    const [rows, total] = await this.applications.page(p.organizationId, q.Offset ?? 0, q.Count ?? 20);
    return list(
      rows.map((r) => ({ id: r.id, status: r.status, createdAt: r.createdAt.toISOString() })),
      total,
    );
  }
}
