import { Injectable } from '@nestjs/common';
import type { ListValue } from '@platform/envelope';
import { PublicStatusError, publicStatusError } from '../status/public-status.errors';
import { worst, type ComponentState } from '../status/states';
import {
  addSeconds,
  DAY_MS,
  dayKey,
  dayStart,
  daysBetween,
  uptimePercent,
  zeroSeconds,
  type StateSeconds,
} from '../uptime/uptime-math';
import { UptimeService } from '../uptime/uptime.service';
import type {
  ChainHeadsResponse,
  ProductStatusResponse,
  ProductUptimeResponse,
  PublicComponentResponse,
  PublicIncidentResponse,
  PublicMaintenanceResponse,
  PublicProductResponse,
  StatusPageResponse,
  UptimeDayResponse,
  UptimeHistoryResponse,
  UptimeSeriesResponse,
} from './dto/public.response';
import {
  PublicRepository,
  type PublicBusiness,
  type PublicIncident,
  type PublicMaintenance,
  type PublicProduct,
  type PublicResource,
} from './public.unscoped.repository';

const PRODUCT_UPTIME_MAX_DAYS = 366;
const UPTIME_HISTORY_MAX_DAYS = 1830;

const componentId = (r: PublicResource) => `${r.productSlug}/${r.slug}`;
const component = (r: PublicResource): PublicComponentResponse => ({
  id: componentId(r),
  name: r.name,
  state: r.state,
  since: r.stateSince.toISOString(),
});

/**
 * The anonymous API. Everything it shows comes through PublicRepository, i.e. the publication views:
 * resources, products and incidents are named only by public slugs and codes, and what an incident or
 * maintenance affects is listed only as far as it is published.
 */

/** A maintenance's last change: completed, started, else announced. Never its (future) start time. */
const maintenanceUpdatedAt = (m: PublicMaintenance): Date => m.completedAt ?? m.startedAt ?? m.createdAt;

@Injectable()
export class PublicStatusService {
  constructor(
    private readonly pub: PublicRepository,
    private readonly uptime: UptimeService,
  ) {}

  private async business(slug: string): Promise<PublicBusiness> {
    const b = await this.pub.business(slug);
    if (!b) throw publicStatusError(PublicStatusError.BUSINESS_NOT_FOUND, { business: slug });
    return b;
  }

  private async product(b: PublicBusiness, slug: string): Promise<PublicProduct> {
    const p = await this.pub.product(b.id, slug);
    if (!p) throw publicStatusError(PublicStatusError.PRODUCT_NOT_FOUND, { product: slug });
    return p;
  }

  async products(
    businessSlug: string | undefined,
    offset: number,
    limit: number,
  ): Promise<ListValue<PublicProductResponse>> {
    const b = businessSlug === undefined ? null : await this.business(businessSlug);
    const [rows, total] = await this.pub.products(b?.id ?? null, offset, limit);
    const resources = await this.pub.resourcesOfProducts(rows.map((p) => p.id));
    return {
      items: rows.map((p) => ({
        business: p.businessSlug,
        id: p.slug,
        name: p.name,
        state: worst(resources.filter((r) => r.productId === p.id).map((r) => r.state)),
      })),
      total,
    };
  }

  async productStatus(businessSlug: string, productSlug: string): Promise<ProductStatusResponse> {
    const b = await this.business(businessSlug);
    const p = await this.product(b, productSlug);
    const resources = await this.pub.resources(b.id, [p.id]);
    const ids = new Set(resources.map((r) => r.id));
    const touches = (x: { resourceIds: string[] }) =>
      !x.resourceIds.length || x.resourceIds.some((id) => ids.has(id));
    const all = await this.pub.resources(b.id);
    const [incidents, maintenances] = await Promise.all([
      this.pub.unresolvedIncidents(b.id),
      this.pub.activeMaintenances(b.id, new Date()),
    ]);
    return {
      business: { slug: b.slug, name: b.name },
      product: { business: b.slug, id: p.slug, name: p.name, state: worst(resources.map((r) => r.state)) },
      components: resources.map(component),
      incidents: await this.incidentViews(incidents.filter(touches), all),
      maintenances: this.maintenanceViews(maintenances.filter(touches), all),
    };
  }

  async statusPage(businessSlug: string): Promise<StatusPageResponse> {
    const b = await this.business(businessSlug);
    const [[products], resources, incidents, maintenances] = await Promise.all([
      this.pub.products(b.id, 0, 1000),
      this.pub.resources(b.id),
      this.pub.unresolvedIncidents(b.id),
      this.pub.activeMaintenances(b.id, new Date()),
    ]);
    const views = products.map((p) => {
      const own = resources.filter((r) => r.productId === p.id);
      return {
        id: p.slug,
        name: p.name,
        state: worst(own.map((r) => r.state)),
        components: own.map(component),
      };
    });
    const state = worst(views.map((v) => v.state));
    const incidentViews = await this.incidentViews(incidents, resources);
    const changes = [
      ...resources.map((r) => r.stateSince.getTime()),
      ...incidents.map((i) => i.updatedAt.getTime()),
      // A maintenance changes when announced, started and completed; its start time may lie ahead.
      ...maintenances.map((m) => maintenanceUpdatedAt(m).getTime()),
    ];
    return {
      business: { slug: b.slug, name: b.name },
      status: { indicator: INDICATOR_OF[state], state },
      products: views,
      incidents: incidentViews,
      maintenances: this.maintenanceViews(maintenances, resources),
      updatedAt: new Date(changes.length ? Math.max(...changes) : 0).toISOString(),
    };
  }

  async history(
    businessSlug: string,
    kind: 'incidents' | 'maintenances',
    page: number,
    perPage: number,
  ): Promise<ListValue<PublicIncidentResponse | PublicMaintenanceResponse>> {
    const b = await this.business(businessSlug);
    const resources = await this.pub.resources(b.id);
    const offset = (page - 1) * perPage;
    if (kind === 'maintenances') {
      const [rows, total] = await this.pub.pastMaintenances(b.id, offset, perPage);
      return { items: this.maintenanceViews(rows, resources), total };
    }
    const [rows, total] = await this.pub.resolvedIncidents(b.id, offset, perPage);
    return { items: await this.incidentViews(rows, resources), total };
  }

  async productUptime(
    businessSlug: string,
    productSlug: string,
    q: { days?: number; from?: string; to?: string },
    now = Date.now(),
  ): Promise<ProductUptimeResponse> {
    const days = range(q, now, 90, PRODUCT_UPTIME_MAX_DAYS);
    const b = await this.business(businessSlug);
    const p = await this.product(b, productSlug);
    const resources = await this.pub.resources(b.id, [p.id]);
    const [perResource, product] = await Promise.all([
      this.uptime.resourceDays(
        b.id,
        resources.map((r) => r.id),
        days,
        now,
      ),
      this.uptime.productDays(
        b.id,
        resources.map((r) => r.id),
        days,
        now,
      ),
    ]);
    return {
      range: { from: days[0], to: days[days.length - 1] },
      product: series(p.slug, p.name, days, product, true),
      components: resources.map((r) =>
        series(componentId(r), r.name, days, perResource.get(r.id) ?? new Map(), true),
      ),
    };
  }

  async uptimeHistory(
    businessSlug: string,
    productSlug: string | undefined,
    q: { from?: string; to?: string },
    now = Date.now(),
  ): Promise<UptimeHistoryResponse> {
    const to = q.to ?? dayKey(now);
    const days = range(
      { from: q.from ?? dayKey(dayStart(to) - 364 * DAY_MS), to },
      now,
      365,
      UPTIME_HISTORY_MAX_DAYS,
    );
    const b = await this.business(businessSlug);
    const products = productSlug
      ? [await this.product(b, productSlug)]
      : (await this.pub.products(b.id, 0, 1000))[0];
    const resources = await this.pub.resources(
      b.id,
      products.map((p) => p.id),
    );
    const perResource = await this.uptime.resourceDays(
      b.id,
      resources.map((r) => r.id),
      days,
      now,
    );
    const out = [];
    for (const p of products) {
      const own = resources.filter((r) => r.productId === p.id);
      const product = await this.uptime.productDays(
        b.id,
        own.map((r) => r.id),
        days,
        now,
      );
      out.push({
        ...series(p.slug, p.name, days, product, false),
        components: own.map((r) =>
          series(componentId(r), r.name, days, perResource.get(r.id) ?? new Map(), false),
        ),
      });
    }
    return { range: { from: days[0], to: days[days.length - 1] }, products: out };
  }

  async chainHeads(businessSlug: string): Promise<ChainHeadsResponse> {
    const b = await this.business(businessSlug);
    const [ids, resources, heads] = await Promise.all([
      this.pub.incidentIds(b.id),
      this.pub.resources(b.id),
      this.pub.uptimeHeads(b.id),
    ]);
    const updates = await this.pub.updates(ids);
    const last = new Map<string, { length: number; head: string }>();
    for (const u of updates) last.set(u.incidentId, { length: u.seq, head: u.hash });
    const names = new Map(resources.map((r) => [r.id, componentId(r)]));
    return {
      incidents: ids.flatMap((id) => {
        const head = last.get(id);
        return head ? [{ id, ...head }] : [];
      }),
      uptime: heads
        .flatMap((h) => {
          const id = names.get(h.resourceId);
          return id ? [{ id, length: Number(h.length), head: h.hash }] : [];
        })
        .sort((a, b) => (a.id < b.id ? -1 : 1)),
    };
  }

  private async incidentViews(
    rows: PublicIncident[],
    visible: PublicResource[],
  ): Promise<PublicIncidentResponse[]> {
    const updates = await this.pub.updates(rows.map((i) => i.id));
    const names = new Map(visible.map((r) => [r.id, componentId(r)]));
    return rows.map((i) => ({
      id: i.id,
      name: i.name,
      impact: i.impact,
      status: i.status,
      components: i.resourceIds.flatMap((id) => names.get(id) ?? []),
      createdAt: i.createdAt.toISOString(),
      updatedAt: i.updatedAt.toISOString(),
      resolvedAt: i.resolvedAt?.toISOString() ?? null,
      updates: updates
        .filter((u) => u.incidentId === i.id)
        .reverse()
        .map((u) => ({
          seq: u.seq,
          status: u.status,
          body: u.body,
          createdAt: u.createdAt.toISOString(),
          prevHash: u.prevHash,
          hash: u.hash,
        })),
    }));
  }

  private maintenanceViews(
    rows: PublicMaintenance[],
    visible: PublicResource[],
  ): PublicMaintenanceResponse[] {
    const names = new Map(visible.map((r) => [r.id, componentId(r)]));
    return rows.map((m) => ({
      id: m.id,
      name: m.name,
      body: m.body,
      status: m.status,
      components: m.resourceIds.flatMap((id) => names.get(id) ?? []),
      scheduledFor: m.scheduledFor.toISOString(),
      scheduledUntil: m.scheduledUntil.toISOString(),
      startedAt: m.startedAt?.toISOString() ?? null,
      completedAt: m.completedAt?.toISOString() ?? null,
      createdAt: m.createdAt.toISOString(),
      updatedAt: maintenanceUpdatedAt(m).toISOString(),
    }));
  }
}

const INDICATOR_OF: Record<ComponentState, string> = {
  operational: 'none',
  under_maintenance: 'maintenance',
  degraded_performance: 'minor',
  partial_outage: 'major',
  major_outage: 'critical',
};

/** Inclusive UTC days of a query; `to` defaults to today and never passes it. */
function range(
  q: { days?: number; from?: string; to?: string },
  now: number,
  defaultDays: number,
  maxDays: number,
): string[] {
  const today = dayKey(now);
  const to = q.to && q.to < today ? q.to : today;
  const from = q.from ?? dayKey(dayStart(to) - ((q.days ?? defaultDays) - 1) * DAY_MS);
  if (
    from > to ||
    (dayStart(to) - dayStart(from)) / DAY_MS + 1 > maxDays ||
    (q.days !== undefined && q.from !== undefined)
  )
    throw publicStatusError(PublicStatusError.INVALID_RANGE, { maxDays });
  return daysBetween(from, to);
}

function series(
  id: string,
  name: string,
  days: string[],
  perDay: Map<string, StateSeconds>,
  withSeconds: boolean,
): UptimeSeriesResponse {
  const total = zeroSeconds();
  const out: UptimeDayResponse[] = days.map((date) => {
    const s = perDay.get(date) ?? zeroSeconds();
    addSeconds(total, s);
    return withSeconds
      ? { date, uptime: uptimePercent(s), seconds: { ...s } }
      : { date, uptime: uptimePercent(s) };
  });
  return { id, name, uptime: uptimePercent(total), days: out };
}
