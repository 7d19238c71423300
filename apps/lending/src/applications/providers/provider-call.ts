import type { ProviderMode } from '../../config/lending.config';

/**
 * One call to an external provider, as the external-call log records it. The adapter says what it
 * sent (`sent`) and what came back (`received`), exactly as on the wire; the log redacts both before
 * storing them (external-calls/redaction.ts), so adapters never decide what is secret.
 */
export class ProviderCall {
  operation = 'call';
  request: unknown = null;
  response: unknown = null;

  /** @param attempt 1 for the first call of a step, 2 for its first retry, ... */
  constructor(readonly attempt: number) {}

  sent(operation: string, body: unknown): void {
    this.operation = operation;
    this.request = body;
  }

  received(body: unknown): void {
    this.response = body;
  }
}

/** The provider did not answer in time (a stub simulates it for its magic inputs). */
export class ProviderTimeoutError extends Error {
  constructor(readonly afterMs: number | null) {
    super(afterMs === null ? 'simulated timeout (stub)' : `no answer within ${afterMs} ms`);
    this.name = 'ProviderTimeoutError';
  }
}

/** Something every provider has: a name for the log and the step, and its mode. */
export interface ProviderIdentity {
  readonly name: string;
  readonly mode: ProviderMode;
}

/** `work`, or a ProviderTimeoutError after `ms` (the late answer is ignored). */
export async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProviderTimeoutError(ms)), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
