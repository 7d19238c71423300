import type { ServiceHealthReportedV1 } from '@platform/messaging';

export type HealthState = 'up' | 'down';

/** Why a service has its state: its own report, or no ready report within the silence window. */
export type HealthReason = 'reported' | 'silent';

/** The timing that turns reports into states, from public-status's config. */
export interface HealthWindow {
  /** The platform's heartbeat (HEALTH_HEARTBEAT_MS). */
  heartbeatMs: number;
  /** heartbeatMs x HEALTH_SILENCE_INTERVALS: no ready report for this long means down. */
  silenceMs: number;
}

/** One instance's report as stored. */
export interface HealthReport {
  service: string;
  instance: string;
  ready: boolean;
  failingChecks: string[];
  checks: Record<string, unknown>;
  reportedAt: string;
}

export interface InstanceHealth {
  instance: string;
  ready: boolean;
  failingChecks: string[];
  reportedAt: string;
  receivedAt: string;
}

export interface ServiceHealthRow {
  service: string;
  state: HealthState;
  reason: HealthReason;
  since: string;
  instances: InstanceHealth[];
}

/** What `PlatformHealthService.platformHealth()` returns per service of libs/registry. */
export interface PlatformServiceHealth {
  service: string;
  state: HealthState;
  /** When the current state began; null for a service that never reported. */
  since: string | null;
  reason: HealthReason | 'never-reported';
  /** Instances heard from within the silence window, each with its last report. */
  instances: InstanceHealth[];
}

export interface HealthTransition {
  service: string;
  state: HealthState;
  reason: HealthReason;
  /** The checks the report that took the service down named; empty for up and for silence. */
  failingChecks: string[];
  at: string;
}

/** Used when reporting is off on this replica (HEALTH_HEARTBEAT_MS=0): the platform's default. */
const DEFAULT_HEARTBEAT_MS = 15000;

export function healthWindow(heartbeatMs: number, silenceIntervals: number): HealthWindow {
  const heartbeat = heartbeatMs > 0 ? heartbeatMs : DEFAULT_HEARTBEAT_MS;
  return { heartbeatMs: heartbeat, silenceMs: heartbeat * silenceIntervals };
}

/** A validated event as the row it becomes; failing checks are the ones the report says are down. */
export function reportOf(event: ServiceHealthReportedV1): HealthReport {
  const failingChecks = Object.entries(event.checks)
    .filter(([, r]) => (r as { status?: unknown } | null)?.status === 'down')
    .map(([name]) => name)
    .sort();
  return {
    service: event.service,
    instance: event.instance,
    ready: event.status === 'up',
    failingChecks,
    checks: event.checks,
    reportedAt: event.reportedAt,
  };
}
