import { Injectable } from '@nestjs/common';
import type { ListValue } from '@platform/envelope';
import type { OrganizationId } from '@platform/tenancy';
import { CasesRepository } from './cases.repository';
import type { ListCasesRequest } from './dto/list-cases.request';

export interface CaseView {
  id: string;
  status: string;
  externalReferenceId: string;
  applicantType: string;
  applicantCountryCode: string;
  reportCountryCode: string;
  createdAt: string;
}

@Injectable()
export class CasesService {
  constructor(private readonly cases: CasesRepository) {}

  async list(organizationId: OrganizationId, q: ListCasesRequest): Promise<ListValue<CaseView>> {
    const [rows, total] = await this.cases.pageOf(
      organizationId,
      { externalReferenceId: q.externalReferenceId },
      q.offset ?? 0,
      q.limit ?? 20,
    );
    return {
      items: rows.map((c) => ({
        id: c.id,
        status: c.status,
        externalReferenceId: c.externalReferenceId,
        applicantType: c.applicantType,
        applicantCountryCode: c.applicantCountryCode,
        reportCountryCode: c.reportCountryCode,
        createdAt: c.createdAt.toISOString(),
      })),
      total,
    };
  }
}
