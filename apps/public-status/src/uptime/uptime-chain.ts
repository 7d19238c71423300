import type { StateSeconds } from './uptime-math';
import type { UptimeDay } from './uptime-day.entity';

export const secondsOfRow = (
  u: Pick<UptimeDay, 'operationalS' | 'degradedS' | 'partialS' | 'majorS' | 'maintenanceS'>,
): StateSeconds => ({
  operational: u.operationalS,
  degraded_performance: u.degradedS,
  partial_outage: u.partialS,
  major_outage: u.majorS,
  under_maintenance: u.maintenanceS,
});

export const rowOfSeconds = (s: StateSeconds) => ({
  operationalS: s.operational,
  degradedS: s.degraded_performance,
  partialS: s.partial_outage,
  majorS: s.major_outage,
  maintenanceS: s.under_maintenance,
});

/** The hashed form of a rollup row. */
export const uptimeCanonical = (
  u: Omit<UptimeDay, 'id' | 'businessId' | 'resourceId' | 'prevHash' | 'hash'>,
) => ({
  day: u.day,
  revision: u.revision,
  seconds: secondsOfRow(u),
  computedAt: u.computedAt.toISOString(),
});
