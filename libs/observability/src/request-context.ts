import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The id of the request whose work is running: an HTTP request (libs/envelope `requestIdMiddleware`
 * runs the rest of the request inside it) or a Kafka message caused by one (libs/consumer runs the
 * handler inside the message's `request-id`). What that work writes deep down, an outbox row
 * (libs/outbox) or a log line (PlatformLogger), names the request without every layer between the
 * controller and the writer passing it along. AsyncLocalStorage, as OpenTelemetry's own context.
 */
const store = new AsyncLocalStorage<{ requestId: string }>();

/** Runs `fn` (and everything it starts) as the work of request `requestId`; `null` runs it outside any. */
export function runWithRequestId<T>(requestId: string | null, fn: () => T): T {
  return requestId ? store.run({ requestId }, fn) : store.exit(fn);
}

/** The request being handled; null outside one (periodic jobs, the admin CLI, a message no request caused). */
export function currentRequestId(): string | null {
  return store.getStore()?.requestId ?? null;
}
