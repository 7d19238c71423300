/** The five component states, named as Statuspage names them (decision 0020). */
export const COMPONENT_STATES = [
  'operational',
  'degraded_performance',
  'partial_outage',
  'major_outage',
  'under_maintenance',
] as const;
export type ComponentState = (typeof COMPONENT_STATES)[number];

/** Where a state change came from. */
export const STATE_SOURCES = ['manual', 'check', 'health', 'incident', 'maintenance'] as const;
export type StateSource = (typeof STATE_SOURCES)[number];

/**
 * How bad a state is, for "worst of" (a product is the worst of its published resources, a page the
 * worst of its products). Maintenance is planned and announced: worse than nothing, better than any
 * unplanned degradation, so an outage during a maintenance window still shows as the outage.
 */
export const SEVERITY: Readonly<Record<ComponentState, number>> = {
  operational: 0,
  under_maintenance: 1,
  degraded_performance: 2,
  partial_outage: 3,
  major_outage: 4,
};

export function worst(states: Iterable<ComponentState>): ComponentState {
  let out: ComponentState = 'operational';
  for (const s of states) if (SEVERITY[s] > SEVERITY[out]) out = s;
  return out;
}

export const INCIDENT_STATUSES = ['investigating', 'identified', 'monitoring', 'resolved'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

/** Statuspage's incident impacts. */
export const INCIDENT_IMPACTS = ['none', 'minor', 'major', 'critical'] as const;
export type IncidentImpact = (typeof INCIDENT_IMPACTS)[number];

/** Who opened an incident: staff, or a resource's automated outage (decision 0023). */
export const INCIDENT_ORIGINS = ['staff', 'automatic'] as const;
export type IncidentOrigin = (typeof INCIDENT_ORIGINS)[number];

export const MAINTENANCE_STATUSES = ['scheduled', 'in_progress', 'completed'] as const;
export type MaintenanceStatus = (typeof MAINTENANCE_STATUSES)[number];

/** SQL `IN` list of a constant tuple, for CHECK constraints that must read the same in entity and migration. */
export const sqlIn = (column: string, values: readonly string[]) =>
  `${column} IN (${values.map((v) => `'${v}'`).join(', ')})`;

/** Public identifiers: lower-case slugs, safe in URLs and never internal ids. */
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
