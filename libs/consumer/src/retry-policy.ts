import { backoffDelayMs } from '@platform/network';

/** How often a failing handler runs before its message is dead-lettered, and how long it waits between. */
export interface RetryPolicy {
  /** Handler runs per message, the first one included; 1 means no retry. */
  attempts: number;
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 5, baseMs: 200, maxMs: 10_000 };

export function retryPolicy(...layers: (Partial<RetryPolicy> | undefined)[]): RetryPolicy {
  const p = Object.assign({}, DEFAULT_RETRY_POLICY, ...layers.map((l) => stripUndefined(l ?? {})));
  if (!Number.isInteger(p.attempts) || p.attempts < 1) throw new Error(`retry attempts must be >= 1`);
  // A zero base would retry (and re-publish to the dead-letter topic) in a tight loop.
  if (!(p.baseMs >= 1) || !(p.maxMs >= p.baseMs)) throw new Error(`retry needs 1 <= baseMs <= maxMs`);
  return p;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Wait before retry number `n` (1-based): exponential, capped, with jitter in the upper half so that
 * replicas failing on the same cause do not retry in lockstep (libs/network's backoff, equal jitter, as
 * the relay's).
 */
export function backoffDelay(
  n: number,
  p: Pick<RetryPolicy, 'baseMs' | 'maxMs'>,
  random = Math.random,
): number {
  return backoffDelayMs(n, { backoffBaseMs: p.baseMs, backoffMaxMs: p.maxMs, jitter: 'equal' }, random);
}
