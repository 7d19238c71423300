import { SEVERITY, type ComponentState, type StateSource } from '../status/states';

/** The two sources the service runs itself, as opposed to staff's manual, incident and maintenance. */
export type AutomatedSource = Extract<StateSource, 'check' | 'health'>;

export interface Signal {
  state: ComponentState;
  source: AutomatedSource;
}

/**
 * Whether staff hold the resource's state, so automated sources leave it alone (decision 0023):
 * under_maintenance (an in-progress maintenance, or set by hand) holds until the maintenance completes
 * or staff change it; a manual or incident state other than operational holds until staff set it back
 * to operational (or the incident's resolution does), which hands the resource back to its checks.
 */
export function heldByStaff(r: { state: ComponentState; stateSource: StateSource }): boolean {
  if (r.state === 'under_maintenance') return true;
  return (r.stateSource === 'manual' || r.stateSource === 'incident') && r.state !== 'operational';
}

/**
 * The state the automated signals of a resource ask for: the worst of them (the same order as the
 * "worst of" rule), from the source that gave it. No signal: null, except that a resource an
 * automated source left in a bad state returns to operational once nothing holds it there (its check
 * deleted or disabled, its platform mapping cleared).
 */
export function desiredState(
  current: { state: ComponentState; stateSource: StateSource },
  signals: readonly Signal[],
  trigger: AutomatedSource,
): Signal | null {
  if (!signals.length) {
    const automated = current.stateSource === 'check' || current.stateSource === 'health';
    return automated && current.state !== 'operational' ? { state: 'operational', source: trigger } : null;
  }
  let out = signals[0];
  for (const s of signals) if (SEVERITY[s.state] > SEVERITY[out.state]) out = s;
  return out.state === 'operational' ? { state: 'operational', source: trigger } : out;
}
