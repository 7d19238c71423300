import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { runWithRequestId, withCallerTraceContext } from '@platform/observability';

export const REQUEST_ID_HEADER = 'x-request-id';
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export type WithRequestId = IncomingMessage & { requestId?: string };

/** Takes the caller's (or the gateway's) request id when it is sane, otherwise makes one. */
export function resolveRequestId(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  const value = Array.isArray(given) ? given[0] : given;
  return value && SAFE_ID.test(value) ? value : randomUUID();
}

/**
 * Express-style middleware: stamps the request id on the request, echoes it on the response, and runs
 * the rest of the request as that request's work (libs/observability `currentRequestId`), so the outbox
 * rows it writes carry it as their `request-id` header and its log lines name it; with tracing off, in
 * the caller's trace context too (`withCallerTraceContext`), so they carry the caller's `traceparent`.
 */
export function requestIdMiddleware(req: WithRequestId, res: ServerResponse, next: () => void): void {
  const id = resolveRequestId(req);
  req.requestId = id;
  req.headers[REQUEST_ID_HEADER] = id;
  res.setHeader('X-Request-Id', id);
  runWithRequestId(id, () => withCallerTraceContext(req.headers, next));
}

export function requestIdOf(req: unknown): string {
  const r = req as WithRequestId | undefined;
  return r?.requestId ?? (r?.headers?.[REQUEST_ID_HEADER] as string | undefined) ?? 'unknown';
}
