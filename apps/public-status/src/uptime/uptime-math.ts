import { COMPONENT_STATES, SEVERITY, type ComponentState } from '../status/states';

/** One stretch of a state: [start, end) in epoch ms; `end` null while it lasts. */
export interface StateSpan {
  state: ComponentState;
  start: number;
  end: number | null;
}

export type StateSeconds = Record<ComponentState, number>;

export const DAY_MS = 86_400_000;

/**
 * The uptime method (docs/public-status-api.md, decision 0020), Statuspage's: major outage counts as
 * fully down, partial outage as 30% down, degraded performance as up; maintenance is announced work
 * and leaves the denominator; time before a resource existed is not counted at all.
 */
export const PARTIAL_OUTAGE_WEIGHT = 0.3;

export const zeroSeconds = (): StateSeconds =>
  Object.fromEntries(COMPONENT_STATES.map((s) => [s, 0])) as StateSeconds;

/** Percent up (2 decimals) or null when nothing counted (no data, or maintenance all along). */
export function uptimePercent(s: StateSeconds): number | null {
  const counted = s.operational + s.degraded_performance + s.partial_outage + s.major_outage;
  if (counted <= 0) return null;
  const down = s.major_outage + PARTIAL_OUTAGE_WEIGHT * s.partial_outage;
  return Math.floor(((counted - down) / counted) * 10_000) / 100;
}

export function addSeconds(into: StateSeconds, more: StateSeconds): StateSeconds {
  for (const s of COMPONENT_STATES) into[s] += more[s];
  return into;
}

/** `YYYY-MM-DD` of a UTC day start. */
export const dayKey = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const dayStart = (day: string) => Date.parse(`${day}T00:00:00.000Z`);

/** Every UTC day from `from` to `to` inclusive, as `YYYY-MM-DD`. */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let t = dayStart(from); t <= dayStart(to); t += DAY_MS) out.push(dayKey(t));
  return out;
}

/**
 * Seconds per state per UTC day of [from, to) from spans, each open span ending at `now`. Only the
 * days listed get a bucket; time outside them is ignored.
 */
export function secondsPerDay(
  spans: readonly StateSpan[],
  days: readonly string[],
  now: number,
): Map<string, StateSeconds> {
  const out = new Map(days.map((d) => [d, zeroSeconds()]));
  for (const span of spans) {
    const end = Math.min(span.end ?? now, now);
    for (const day of days) {
      const a = Math.max(span.start, dayStart(day));
      const b = Math.min(end, dayStart(day) + DAY_MS);
      const bucket = out.get(day);
      if (bucket && b > a) bucket[span.state] += Math.round((b - a) / 1000);
    }
  }
  return out;
}

/**
 * A product's timeline from its resources' spans: at each moment the worst state of the resources
 * that existed then (a product has no time before its first resource).
 */
export function worstOfTimelines(timelines: readonly (readonly StateSpan[])[], now: number): StateSpan[] {
  const points = new Set<number>();
  for (const t of timelines)
    for (const s of t) {
      points.add(s.start);
      points.add(Math.min(s.end ?? now, now));
    }
  const sorted = [...points].sort((a, b) => a - b);
  const out: StateSpan[] = [];
  for (let i = 0; i + 1 < sorted.length; i++) {
    const [a, b] = [sorted[i], sorted[i + 1]];
    let state: ComponentState | null = null;
    for (const t of timelines)
      for (const s of t)
        if (
          s.start <= a &&
          Math.min(s.end ?? now, now) >= b &&
          (!state || SEVERITY[s.state] > SEVERITY[state])
        )
          state = s.state;
    if (!state) continue;
    const last = out[out.length - 1];
    if (last && last.state === state && last.end === a) last.end = b;
    else out.push({ state, start: a, end: b });
  }
  return out;
}
