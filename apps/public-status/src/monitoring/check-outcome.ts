import type { ComponentState } from '../status/states';

/** One run's verdict: the response passed, passed but slowly, or failed (error, timeout, status, body). */
export type CheckOutcome = 'up' | 'slow' | 'down';
/** A check's settled status: an outcome held for its threshold of consecutive runs. */
export type CheckStatus = 'unknown' | CheckOutcome;

export interface CheckExpectations {
  expectStatusMin: number;
  expectStatusMax: number;
  bodyContains: string | null;
  slowMs: number | null;
}

export interface ProbeResult {
  statusCode: number | null;
  /** Set when no acceptable answer came: connection error, timeout, refused target. */
  error: string | null;
  latencyMs: number;
  /** The start of the body (up to the probe's cap); null for HEAD or on error. */
  body: string | null;
}

export function outcomeOf(
  e: CheckExpectations,
  r: ProbeResult,
): { outcome: CheckOutcome; error: string | null } {
  if (r.error !== null || r.statusCode === null) return { outcome: 'down', error: r.error ?? 'no answer' };
  if (r.statusCode < e.expectStatusMin || r.statusCode > e.expectStatusMax)
    return { outcome: 'down', error: `unexpected status ${r.statusCode}` };
  if (e.bodyContains !== null && !(r.body ?? '').includes(e.bodyContains))
    return { outcome: 'down', error: 'expected text not found in the body' };
  if (e.slowMs !== null && r.latencyMs > e.slowMs) return { outcome: 'slow', error: null };
  return { outcome: 'up', error: null };
}

export interface Streak {
  status: CheckStatus;
  streakOutcome: CheckOutcome | null;
  streak: number;
}

/**
 * Hysteresis: the status becomes a new outcome only after `failureThreshold` consecutive `down` or
 * `slow` runs, or `recoveryThreshold` consecutive `up` runs, so one lost packet never flaps a resource.
 * A check's first settled status (from `unknown`) follows the same rule.
 */
export function nextStreak(
  s: Streak,
  outcome: CheckOutcome,
  thresholds: { failureThreshold: number; recoveryThreshold: number },
): Streak {
  const streak = s.streakOutcome === outcome ? s.streak + 1 : 1;
  const needed = outcome === 'up' ? thresholds.recoveryThreshold : thresholds.failureThreshold;
  return { status: streak >= needed ? outcome : s.status, streakOutcome: outcome, streak };
}

/** The resource state a settled check asks for; null while it has no settled status yet. */
export function stateOfCheck(status: CheckStatus, failureState: ComponentState): ComponentState | null {
  switch (status) {
    case 'unknown':
      return null;
    case 'up':
      return 'operational';
    case 'slow':
      return 'degraded_performance';
    case 'down':
      return failureState;
  }
}
