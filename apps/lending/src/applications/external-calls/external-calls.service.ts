import { Injectable } from '@nestjs/common';
import type { ListValue } from '@platform/envelope';
import type { OrganizationId } from '@platform/tenancy';
import { TenantData } from '../../tenancy/tenant-data';
import { ApplicationViews } from '../application-views';
import { ApplicationsService } from '../applications.service';
import type { ExternalCallResponse } from '../dto/external-call.response';
import type { GetExternalCallsRequest } from '../dto/get-applications.request';
import { ExternalCallsRepository } from './external-calls.repository';

/** Reads the external-call log (GetExternalCalls): an application's calls, or the organization's. */
@Injectable()
export class ExternalCallsService {
  constructor(
    private readonly data: TenantData,
    private readonly calls: ExternalCallsRepository,
    private readonly reader: ApplicationsService,
    private readonly views: ApplicationViews,
  ) {}

  async page(
    organizationId: OrganizationId,
    q: GetExternalCallsRequest,
  ): Promise<ListValue<ExternalCallResponse>> {
    const [rows, total] = await this.data.run(organizationId, async (tx) => {
      if (q.ApplicationId) await this.reader.byIdOrFail(organizationId, q.ApplicationId, tx);
      return this.calls.pageOf(
        organizationId,
        { applicationId: q.ApplicationId },
        q.Offset ?? 0,
        q.Count ?? 20,
        tx,
      );
    });
    return { items: rows.map((c) => this.views.externalCall(c)), total };
  }
}
