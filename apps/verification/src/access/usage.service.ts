import { Injectable } from '@nestjs/common';
import type { OrganizationId } from '@platform/tenancy';
import { ActivityRepository } from './activity.repository';
import { UsageRepository, type CountedTable } from './usage.repository';

export interface UsageView {
  month: string;
  checks: number;
  casesCreated: number;
  providerSessionsStarted: number;
  summariesGenerated: number;
  documentsUploaded: number;
}

/** Each measure: the table that records it, and the caller's route that creates it (the fallback). */
const MEASURES = {
  casesCreated: {
    table: { table: 'verification_cases', timeColumns: ['created_at'] },
    route: '/api/v1/verification-cases',
  },
  providerSessionsStarted: {
    table: { table: 'provider_sessions', timeColumns: ['started_at', 'created_at'] },
    route: '/api/v1/verification-cases/:id/provider-checks/start-session',
  },
  summariesGenerated: {
    table: { table: 'case_summaries', timeColumns: ['generated_at', 'created_at'] },
    route: '/api/v1/verification-cases/:id/summary/generate',
  },
  documentsUploaded: {
    table: { table: 'documents', timeColumns: ['uploaded_at', 'created_at'] },
    route: '/api/v1/verification-cases/:id/documents/signed-upload-url',
  },
} as const satisfies Record<string, { table: CountedTable; route: string }>;

/** First instant of a `YYYY-MM` month (UTC) and of the next one. */
export function monthRange(month: string): { from: Date; to: Date } {
  const [y, m] = month.split('-').map(Number);
  return { from: new Date(Date.UTC(y, m - 1, 1)), to: new Date(Date.UTC(y, m, 1)) };
}

export const currentMonth = (now = new Date()) => now.toISOString().slice(0, 7);

/**
 * Usage per calendar month (UTC), docs/verification/access.md "Usage". Counted from the rows each area
 * keeps; an area whose table does not exist yet is counted from the activity history (its route's
 * successful calls), so the figure is never silently missing.
 */
@Injectable()
export class UsageService {
  constructor(
    private readonly usage: UsageRepository,
    private readonly activity: ActivityRepository,
  ) {}

  async of(organizationId: OrganizationId, month = currentMonth()): Promise<UsageView> {
    const { from, to } = monthRange(month);
    const fromActivity = await this.activity.successfulWritesByRoute(
      organizationId,
      Object.values(MEASURES).map((m) => m.route),
      from,
      to,
    );
    const counts = {} as Record<keyof typeof MEASURES, number>;
    for (const [name, m] of Object.entries(MEASURES) as [
      keyof typeof MEASURES,
      (typeof MEASURES)[keyof typeof MEASURES],
    ][]) {
      counts[name] =
        (await this.usage.countRows(organizationId, m.table, from, to)) ?? fromActivity.get(m.route) ?? 0;
    }
    return { month, checks: counts.casesCreated, ...counts };
  }
}
