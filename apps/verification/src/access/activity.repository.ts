import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { ActivityEntry } from './activity-entry.entity';

export type ActivityLine = Omit<ActivityEntry, 'id'>;

export interface ActivityFilter {
  from?: Date;
  to?: Date;
  actor?: string;
}

@Injectable()
export class ActivityRepository extends TenantScopedRepository<ActivityEntry, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, ActivityEntry, 'organizationId');
  }

  /** One organization's lines in one statement. */
  record(organizationId: OrganizationId, lines: Omit<ActivityLine, 'organizationId'>[]): Promise<void> {
    return this.insert(organizationId, lines);
  }

  /** Newest first; the id breaks ties so pages never overlap. `from` inclusive, `to` exclusive. */
  pageOf(
    organizationId: OrganizationId,
    filter: ActivityFilter,
    offset: number,
    limit: number,
  ): Promise<[ActivityEntry[], number]> {
    return this.select(organizationId, 'a', (q) => {
      if (filter.from) q.andWhere('a.at >= :from', { from: filter.from });
      if (filter.to) q.andWhere('a.at < :to', { to: filter.to });
      if (filter.actor !== undefined) q.andWhere('a.actor = :actor', { actor: filter.actor });
      return q.orderBy('a.at', 'DESC').addOrderBy('a.id', 'DESC').skip(offset).take(limit).getManyAndCount();
    });
  }

  /** Successful (2xx) writes of the organization on each route pattern in [from, to). */
  async successfulWritesByRoute(
    organizationId: OrganizationId,
    routes: readonly string[],
    from: Date,
    to: Date,
  ): Promise<Map<string, number>> {
    const rows = await this.select(organizationId, 'a', (q) =>
      q
        .select('a.route', 'route')
        .addSelect('count(*)::int', 'n')
        .andWhere('a.route IN (:...routes)', { routes })
        .andWhere("a.method = 'POST'")
        .andWhere('a.status BETWEEN 200 AND 299')
        .andWhere('a.at >= :from AND a.at < :to', { from, to })
        .groupBy('a.route')
        .getRawMany<{ route: string; n: number }>(),
    );
    return new Map(rows.map((r) => [r.route, Number(r.n)]));
  }
}
