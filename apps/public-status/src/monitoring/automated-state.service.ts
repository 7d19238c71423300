import { Inject, Injectable } from '@nestjs/common';
import type { Tx } from '@platform/persistence';
import { ResourcesRepository } from '../catalog/resources.repository';
import { IncidentsService } from '../incidents/incidents.service';
import { StateService } from '../status/state.service';
import type { BusinessId } from '../tenancy/business-id';
import { desiredState, heldByStaff, type AutomatedSource, type Signal } from './automated-state';
import { stateOfCheck } from './check-outcome';
import { MonitoringChecksRepository } from './monitoring-checks.repository';

/** The platform's health of one app as the mapping needs it (PlatformHealthService, decision 0021). */
export type PlatformHealthLookup = (
  service: string,
) => Promise<{ state: 'up' | 'down'; since: string | null } | null>;
export const PLATFORM_HEALTH_LOOKUP = Symbol('PLATFORM_HEALTH_LOOKUP');

/**
 * Sets a resource's state from everything automated that watches it (its enabled checks' settled
 * statuses and its platform app's health), level-triggered: it computes what the state should be and
 * changes it only if it differs, so running it twice, or on two replicas, writes one history row.
 * The change goes through StateService (row lock, history row, the same "worst of" inputs as staff's),
 * and IncidentsService follows it with the resource's automatic incident, if it asks for one.
 */
@Injectable()
export class AutomatedStateService {
  constructor(
    private readonly resources: ResourcesRepository,
    private readonly checks: MonitoringChecksRepository,
    private readonly states: StateService,
    private readonly incidents: IncidentsService,
    @Inject(PLATFORM_HEALTH_LOOKUP) private readonly health: PlatformHealthLookup,
  ) {}

  /** Returns the state set, or null when nothing changed (already right, held by staff, no signal). */
  async reconcile(
    tx: Tx,
    business: BusinessId,
    resourceId: string,
    trigger: AutomatedSource,
  ): Promise<Signal | null> {
    const r = await this.resources.lock(business, resourceId, tx);
    if (!r || heldByStaff(r)) return null;
    const signals: Signal[] = [];
    for (const c of await this.checks.ofResource(business, resourceId, tx)) {
      const state = stateOfCheck(c.status, c.failureState);
      if (state) signals.push({ state, source: 'check' });
    }
    let healthSince: Date | null = null;
    if (r.platformService) {
      const h = await this.health(r.platformService);
      if (h) {
        signals.push({ state: h.state === 'up' ? 'operational' : 'major_outage', source: 'health' });
        healthSince = h.since ? new Date(h.since) : null;
      }
    }
    const want = desiredState(r, signals, trigger);
    if (!want || want.state === r.state) return null;
    // A health change is dated by its transition (never before the resource's current state began,
    // never in the future); a check's by now, the run that crossed its threshold.
    const now = new Date();
    const at =
      want.source === 'health' && healthSince
        ? new Date(Math.min(now.getTime(), Math.max(healthSince.getTime(), r.stateSince.getTime())))
        : now;
    await this.states.change(tx, business, resourceId, {
      state: want.state,
      source: want.source,
      note: want.source === 'health' ? `platform app ${r.platformService}` : '',
      at,
    });
    await this.incidents.followAutomatedState(tx, business, r, want);
    return want;
  }
}
