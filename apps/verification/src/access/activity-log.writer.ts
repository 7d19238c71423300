import { Injectable } from '@nestjs/common';
import { BatchWriter } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { ActivityRepository, type ActivityLine } from './activity.repository';

/**
 * The activity history off the request path (libs/persistence BatchWriter: every 200 ms or 500 lines,
 * kept and retried while the database is away, flushed at shutdown), one insert per organization.
 */
@Injectable()
export class ActivityLogWriter extends BatchWriter<ActivityLine> {
  constructor(private readonly activity: ActivityRepository) {
    super({ what: 'activity log', context: 'ActivityLog' });
  }

  protected async write(lines: ActivityLine[]): Promise<ActivityLine[]> {
    const groups = new Map<OrganizationId, ActivityLine[]>();
    for (const l of lines) groups.set(l.organizationId, [...(groups.get(l.organizationId) ?? []), l]);
    const failed: ActivityLine[] = [];
    for (const [organizationId, mine] of groups) {
      try {
        await this.activity.record(
          organizationId,
          mine.map(({ organizationId: _, ...rest }) => rest),
        );
      } catch (err) {
        this.logger.warn(`${organizationId}: ${(err as Error).message}`);
        failed.push(...mine);
      }
    }
    return failed;
  }
}
