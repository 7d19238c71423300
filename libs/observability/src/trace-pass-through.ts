import type { IncomingHttpHeaders } from 'node:http';
import { ROOT_CONTEXT, context, propagation, trace } from '@opentelemetry/api';

/**
 * Set by `startTracing` (`@platform/observability/tracing`) when tracing is off but the W3C context is
 * still carried (tracing.propagation.ts). With tracing on the HTTP instrumentation continues a caller's
 * context itself, in a server span of ours.
 */
let passThrough = false;

export function setTracePassThrough(on: boolean): void {
  passThrough = on;
}

/**
 * Runs the rest of an HTTP request in the caller's trace context (its `traceparent`) when tracing is off
 * in this process and the context is carried through (libs/envelope's request-id middleware calls it),
 * so what the request writes (outbox rows, log lines) names the caller's trace. Otherwise runs `next` as
 * it is.
 */
export function withCallerTraceContext<T>(headers: IncomingHttpHeaders, next: () => T): T {
  if (!passThrough) return next();
  const caller = propagation.extract(ROOT_CONTEXT, headers);
  return trace.getSpanContext(caller) ? context.with(caller, next) : next();
}
