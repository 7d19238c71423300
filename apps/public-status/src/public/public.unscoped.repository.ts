// Unscoped: the anonymous public pages, read only from the publication views, found by slug.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ComponentState, IncidentImpact, IncidentStatus, MaintenanceStatus } from '../status/states';
import { asBusinessId, type BusinessId } from '../tenancy/business-id';

export interface PublicBusiness {
  id: BusinessId;
  slug: string;
  name: string;
}

export interface PublicProduct {
  id: string;
  businessSlug: string;
  slug: string;
  name: string;
}

export interface PublicResource {
  id: string;
  productId: string;
  productSlug: string;
  slug: string;
  name: string;
  state: ComponentState;
  stateSince: Date;
}

export interface PublicIncident {
  id: string;
  name: string;
  impact: IncidentImpact;
  status: IncidentStatus;
  resourceIds: string[];
  createdAt: Date;
  updatedAt: Date;
  resolvedAt: Date | null;
}

export interface PublicMaintenance {
  id: string;
  name: string;
  body: string;
  status: MaintenanceStatus;
  resourceIds: string[];
  scheduledFor: Date;
  scheduledUntil: Date;
  startedAt: Date | null;
  completedAt: Date | null;
  /** When it was announced (scheduled): a maintenance is never edited, only started and completed. */
  createdAt: Date;
}

export interface PublicUpdate {
  incidentId: string;
  seq: number;
  status: IncidentStatus;
  body: string;
  createdAt: Date;
  prevHash: string;
  hash: string;
}

const INCIDENT_COLUMNS = `id, name, impact, status, resource_ids AS "resourceIds", created_at AS "createdAt",
  updated_at AS "updatedAt", resolved_at AS "resolvedAt"`;
const MAINTENANCE_COLUMNS = `id, name, body, status, resource_ids AS "resourceIds", scheduled_for AS "scheduledFor",
  scheduled_until AS "scheduledUntil", started_at AS "startedAt", completed_at AS "completedAt",
  created_at AS "createdAt"`;

/**
 * Every anonymous read, and only from the publication views (public_businesses, public_products,
 * public_resources, public_incidents, public_maintenances; migration StatusModel1763800000000): the
 * rule "public only when every level above is published too" lives in those views and nowhere else.
 * Deliberately not tenant-scoped: this is the public page (decision 0009). Incident updates are read
 * only for incident ids these views returned.
 */
@Injectable()
export class PublicRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async business(slug: string): Promise<PublicBusiness | null> {
    const [row] = (await this.ds.query(`SELECT id, slug, name FROM public_businesses WHERE slug = $1`, [
      slug,
    ])) as { id: string; slug: string; name: string }[];
    return row ? { ...row, id: asBusinessId(row.id) } : null;
  }

  /** Published products, of one business or of all, with the total. */
  async products(
    business: BusinessId | null,
    offset: number,
    limit: number,
  ): Promise<[PublicProduct[], number]> {
    const where = business ? 'WHERE business_id = $3' : '';
    const params = business ? [limit, offset, business] : [limit, offset];
    const rows = (await this.ds.query(
      `SELECT id, business_slug AS "businessSlug", slug, name, count(*) OVER () AS total
       FROM public_products ${where}
       ORDER BY business_slug, sort_order, slug LIMIT $1 OFFSET $2`,
      params,
    )) as (PublicProduct & { total: string })[];
    const total = rows.length
      ? Number(rows[0].total)
      : Number(
          (
            (await this.ds.query(
              `SELECT count(*) AS n FROM public_products ${business ? 'WHERE business_id = $1' : ''}`,
              business ? [business] : [],
            )) as { n: string }[]
          )[0].n,
        );
    return [rows.map(({ total: _t, ...p }) => p), total];
  }

  async product(business: BusinessId, slug: string): Promise<PublicProduct | null> {
    const [row] = (await this.ds.query(
      `SELECT id, business_slug AS "businessSlug", slug, name FROM public_products WHERE business_id = $1 AND slug = $2`,
      [business, slug],
    )) as PublicProduct[];
    return row ?? null;
  }

  /** Published resources of a business's published products (of some products, when given). */
  resources(business: BusinessId, productIds?: string[]): Promise<PublicResource[]> {
    return this.ds.query(
      `SELECT id, product_id AS "productId", product_slug AS "productSlug", slug, name, state, state_since AS "stateSince"
       FROM public_resources WHERE business_id = $1 ${productIds ? 'AND product_id = ANY($2::uuid[])' : ''}
       ORDER BY product_sort_order, product_slug, sort_order, slug`,
      productIds ? [business, productIds] : [business],
    ) as Promise<PublicResource[]>;
  }

  /** Of all businesses' products listed: the published resources (for the Products list's states). */
  resourcesOfProducts(productIds: string[]): Promise<PublicResource[]> {
    if (!productIds.length) return Promise.resolve([]);
    return this.ds.query(
      `SELECT id, product_id AS "productId", product_slug AS "productSlug", slug, name, state, state_since AS "stateSince"
       FROM public_resources WHERE product_id = ANY($1::uuid[])`,
      [productIds],
    ) as Promise<PublicResource[]>;
  }

  unresolvedIncidents(business: BusinessId): Promise<PublicIncident[]> {
    return this.ds.query(
      `SELECT ${INCIDENT_COLUMNS} FROM public_incidents WHERE business_id = $1 AND status <> 'resolved'
       ORDER BY created_at DESC, id`,
      [business],
    ) as Promise<PublicIncident[]>;
  }

  async resolvedIncidents(
    business: BusinessId,
    offset: number,
    limit: number,
  ): Promise<[PublicIncident[], number]> {
    const rows = (await this.ds.query(
      `SELECT ${INCIDENT_COLUMNS}, count(*) OVER () AS total FROM public_incidents
       WHERE business_id = $1 AND status = 'resolved' ORDER BY resolved_at DESC, id LIMIT $2 OFFSET $3`,
      [business, limit, offset],
    )) as (PublicIncident & { total: string })[];
    const total = rows.length
      ? Number(rows[0].total)
      : await this.count('public_incidents', business, `status = 'resolved'`);
    return [rows.map(({ total: _t, ...i }) => i), total];
  }

  /** In progress, or scheduled and not yet past its window. */
  activeMaintenances(business: BusinessId, now: Date): Promise<PublicMaintenance[]> {
    return this.ds.query(
      `SELECT ${MAINTENANCE_COLUMNS} FROM public_maintenances WHERE business_id = $1
       AND (status = 'in_progress' OR (status = 'scheduled' AND scheduled_until > $2))
       ORDER BY scheduled_for, id`,
      [business, now],
    ) as Promise<PublicMaintenance[]>;
  }

  async pastMaintenances(
    business: BusinessId,
    offset: number,
    limit: number,
  ): Promise<[PublicMaintenance[], number]> {
    const rows = (await this.ds.query(
      `SELECT ${MAINTENANCE_COLUMNS}, count(*) OVER () AS total FROM public_maintenances
       WHERE business_id = $1 AND status = 'completed' ORDER BY completed_at DESC, id LIMIT $2 OFFSET $3`,
      [business, limit, offset],
    )) as (PublicMaintenance & { total: string })[];
    const total = rows.length
      ? Number(rows[0].total)
      : await this.count('public_maintenances', business, `status = 'completed'`);
    return [rows.map(({ total: _t, ...m }) => m), total];
  }

  /** The most recently changed public incidents, resolved or not (the RSS feed). */
  recentIncidents(business: BusinessId, limit: number): Promise<PublicIncident[]> {
    return this.ds.query(
      `SELECT ${INCIDENT_COLUMNS} FROM public_incidents WHERE business_id = $1
       ORDER BY updated_at DESC, id LIMIT $2`,
      [business, limit],
    ) as Promise<PublicIncident[]>;
  }

  /** The most recently announced public maintenance, with the time each was announced (the RSS feed). */
  recentMaintenances(business: BusinessId, limit: number): Promise<PublicMaintenance[]> {
    return this.ds.query(
      `SELECT ${MAINTENANCE_COLUMNS} FROM public_maintenances WHERE business_id = $1
       ORDER BY greatest(created_at, started_at, completed_at) DESC, id LIMIT $2`,
      [business, limit],
    ) as Promise<PublicMaintenance[]>;
  }

  /** Updates of incidents a view above returned, in chain order. */
  updates(incidentIds: string[]): Promise<PublicUpdate[]> {
    if (!incidentIds.length) return Promise.resolve([]);
    return this.ds.query(
      `SELECT incident_id AS "incidentId", seq, status, body, created_at AS "createdAt", prev_hash AS "prevHash", hash
       FROM incident_updates WHERE incident_id = ANY($1::text[]) ORDER BY incident_id, seq`,
      [incidentIds],
    ) as Promise<PublicUpdate[]>;
  }

  /** Every public incident's id (for the chain heads). */
  async incidentIds(business: BusinessId): Promise<string[]> {
    const rows = (await this.ds.query(`SELECT id FROM public_incidents WHERE business_id = $1 ORDER BY id`, [
      business,
    ])) as { id: string }[];
    return rows.map((r) => r.id);
  }

  /** Chain heads of the daily uptime rows of public resources. */
  uptimeHeads(business: BusinessId): Promise<{ resourceId: string; length: string; hash: string }[]> {
    return this.ds.query(
      `SELECT DISTINCT ON (u.resource_id) u.resource_id AS "resourceId", count(*) OVER (PARTITION BY u.resource_id) AS length, u.hash
       FROM uptime_daily u JOIN public_resources r ON r.id = u.resource_id
       WHERE r.business_id = $1 ORDER BY u.resource_id, u.id DESC`,
      [business],
    ) as Promise<{ resourceId: string; length: string; hash: string }[]>;
  }

  private async count(view: string, business: BusinessId, condition: string): Promise<number> {
    const [row] = (await this.ds.query(
      `SELECT count(*) AS n FROM ${view} WHERE business_id = $1 AND ${condition}`,
      [business],
    )) as { n: string }[];
    return Number(row.n);
  }
}
