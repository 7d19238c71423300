import { Controller, Get, Query } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { Authenticated, CurrentPrincipal, RequireScopes } from '@platform/auth';
import { list } from '@platform/envelope';
import type { OrganizationPrincipal } from '../auth/verification.guard';
import { ListCasesRequest } from './dto/list-cases.request';
import { VerificationCase } from './verification-case.entity';

@ApiTags('Verification cases')
@ApiHeader({ name: 'X-API-Key', required: true })
@ApiHeader({ name: 'Service-Organization-Id', required: true })
@ApiHeader({ name: 'Accept-Language', required: false })
@Controller('api/v1/verification-cases')
export class CasesController {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  @Get()
  @Authenticated('api-key')
  @RequireScopes('cases:read')
  @ApiOperation({ summary: 'Find cases, e.g. by externalReferenceId, with the total count' })
  async list(@CurrentPrincipal() p: OrganizationPrincipal, @Query() q: ListCasesRequest) {
    const [rows, total] = await this.ds.getRepository(VerificationCase).findAndCount({
      where: {
        organizationId: p.organizationId,
        ...(q.externalReferenceId ? { externalReferenceId: q.externalReferenceId } : {}),
      },
      order: { createdAt: 'DESC', id: 'ASC' },
      skip: q.offset ?? 0,
      take: q.limit ?? 20,
    });
    return list(
      rows.map((c) => ({
        id: c.id,
        status: c.status,
        externalReferenceId: c.externalReferenceId,
        applicantType: c.applicantType,
        applicantCountryCode: c.applicantCountryCode,
        reportCountryCode: c.reportCountryCode,
        createdAt: c.createdAt.toISOString(),
      })),
      total,
    );
  }
}
