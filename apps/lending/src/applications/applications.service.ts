import { Injectable } from '@nestjs/common';
import type { ListValue } from '@platform/envelope';
import type { OrganizationId } from '@platform/tenancy';
import { TenantData } from '../tenancy/tenant-data';
import { ApplicationsRepository } from './applications.repository';
import type { GetApplicationsRequest } from './dto/get-applications.request';

export interface ApplicationView {
  id: string;
  status: string;
  createdAt: string;
}

@Injectable()
export class ApplicationsService {
  constructor(
    private readonly data: TenantData,
    private readonly applications: ApplicationsRepository,
  ) {}

  async page(organizationId: OrganizationId, q: GetApplicationsRequest): Promise<ListValue<ApplicationView>> {
    const [rows, total] = await this.data.run(organizationId, (tx) =>
      this.applications.pageOf(organizationId, q.Offset ?? 0, q.Count ?? 20, tx),
    );
    return {
      items: rows.map((r) => ({ id: r.id, status: r.status, createdAt: r.createdAt.toISOString() })),
      total,
    };
  }
}
