import { Injectable } from '@nestjs/common';
import type { ListValue } from '@platform/envelope';
import type { OrganizationId } from '@platform/tenancy';
import { AccessError, accessError } from './access.errors';
import { ActivityRepository } from './activity.repository';
import type { ActivityResponse, ListActivityRequest } from './dto/activity.dto';

@Injectable()
export class ActivityService {
  constructor(private readonly activity: ActivityRepository) {}

  /** The organization's writes, newest first; `from` inclusive, `to` exclusive. */
  async list(organizationId: OrganizationId, q: ListActivityRequest): Promise<ListValue<ActivityResponse>> {
    const from = q.from ? new Date(q.from) : undefined;
    const to = q.to ? new Date(q.to) : undefined;
    if (from && to && from >= to) throw accessError(AccessError.ACTIVITY_RANGE_INVALID);
    const [rows, total] = await this.activity.pageOf(
      organizationId,
      { from, to, actor: q.actor },
      q.offset ?? 0,
      q.limit ?? 50,
    );
    return {
      items: rows.map((r) => ({
        id: String(r.id),
        at: r.at.toISOString(),
        actor: r.actor,
        actorKind: r.actorKind,
        method: r.method,
        route: r.route,
        targetId: r.targetId,
        status: r.status,
        requestId: r.requestId,
      })),
      total,
    };
  }
}
