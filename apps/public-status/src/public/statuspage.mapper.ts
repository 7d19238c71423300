import type { ComponentState } from '../status/states';
import type {
  PublicIncidentResponse,
  PublicMaintenanceResponse,
  StatusPageResponse,
} from './dto/public.response';

/**
 * Statuspage's page indicator for our worst state. Component statuses need no mapping: ours are
 * Statuspage's five names, one to one (docs/public-status-api.md).
 */
export const INDICATOR: Readonly<Record<ComponentState, { indicator: string; description: string }>> = {
  operational: { indicator: 'none', description: 'All Systems Operational' },
  under_maintenance: { indicator: 'maintenance', description: 'Service Under Maintenance' },
  degraded_performance: { indicator: 'minor', description: 'Minor Service Outage' },
  partial_outage: { indicator: 'major', description: 'Partial System Outage' },
  major_outage: { indicator: 'critical', description: 'Major System Outage' },
};

/** Our maintenance statuses as Statuspage names them. */
const MAINTENANCE_STATUS = {
  scheduled: 'scheduled',
  in_progress: 'in_progress',
  completed: 'completed',
} as const;

function incident(i: PublicIncidentResponse, pageId: string) {
  return {
    id: i.id,
    name: i.name,
    status: i.status,
    impact: i.impact,
    created_at: i.createdAt,
    updated_at: i.updatedAt,
    started_at: i.createdAt,
    monitoring_at: i.updates.find((u) => u.status === 'monitoring')?.createdAt ?? null,
    resolved_at: i.resolvedAt,
    shortlink: null,
    page_id: pageId,
    components: i.components.map((id) => ({ id })),
    incident_updates: i.updates.map((u) => ({
      id: `${i.id}-${u.seq}`,
      incident_id: i.id,
      status: u.status,
      body: u.body,
      created_at: u.createdAt,
      updated_at: u.createdAt,
      display_at: u.createdAt,
      affected_components: null,
    })),
  };
}

function maintenance(m: PublicMaintenanceResponse, pageId: string) {
  return {
    id: m.id,
    name: m.name,
    status: MAINTENANCE_STATUS[m.status as keyof typeof MAINTENANCE_STATUS],
    impact: 'maintenance',
    created_at: m.createdAt,
    updated_at: m.updatedAt,
    started_at: m.startedAt,
    resolved_at: m.completedAt,
    scheduled_for: m.scheduledFor,
    scheduled_until: m.scheduledUntil,
    shortlink: null,
    page_id: pageId,
    components: m.components.map((id) => ({ id })),
    incident_updates: m.body
      ? [
          {
            id: `${m.id}-1`,
            incident_id: m.id,
            status: 'scheduled',
            body: m.body,
            created_at: m.createdAt,
            updated_at: m.createdAt,
            display_at: m.createdAt,
            affected_components: null,
          },
        ]
      : [],
  };
}

/**
 * The `summary.json` of Statuspage's public API v2 for one business: products become component
 * groups (`group: true`, id = product id), resources their components (id = `product/resource`).
 * `url` is absolute (Statuspage's is), on PUBLIC_STATUS_URL.
 */
export function toStatuspageSummary(page: StatusPageResponse, url: string) {
  const pageId = page.business.slug;
  const components = page.products.flatMap((p, position) => [
    {
      id: p.id,
      name: p.name,
      status: p.state,
      created_at: null,
      updated_at: page.updatedAt,
      position: position + 1,
      description: null,
      showcase: true,
      start_date: null,
      group_id: null,
      page_id: pageId,
      group: true,
      only_show_if_degraded: false,
      components: p.components.map((c) => c.id),
    },
    ...p.components.map((c, i) => ({
      id: c.id,
      name: c.name,
      status: c.state,
      created_at: null,
      updated_at: c.since,
      position: i + 1,
      description: null,
      showcase: true,
      start_date: null,
      group_id: p.id,
      page_id: pageId,
      group: false,
      only_show_if_degraded: false,
    })),
  ]);
  const worst = page.status.state as ComponentState;
  return {
    page: { id: pageId, name: page.business.name, url, time_zone: 'Etc/UTC', updated_at: page.updatedAt },
    components,
    incidents: page.incidents.map((i) => incident(i, pageId)),
    scheduled_maintenances: page.maintenances.map((m) => maintenance(m, pageId)),
    status: INDICATOR[worst],
  };
}
