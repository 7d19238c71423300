import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestIdOf } from '@platform/envelope';

const context = new AsyncLocalStorage<{ requestId: string }>();

/**
 * Runs the rest of an HTTP request (the routes included) with its request id at hand, so that what the
 * request writes deep down (an outbox row, docs/contracts/kafka-topics.md `request-id`) names it
 * without every service between the controller and the emitter passing it along. Registered after the
 * platform's request-id middleware (createHttpApp), which resolves the id.
 */
export function requestContextMiddleware(
  req: IncomingMessage,
  _res: ServerResponse,
  next: (err?: unknown) => void,
): void {
  context.run({ requestId: requestIdOf(req) }, next);
}

/**
 * The id of the HTTP request being handled; null outside one (the periodic jobs, the admin CLI), whose
 * events then carry no `request-id`.
 */
export function currentRequestId(): string | null {
  return context.getStore()?.requestId ?? null;
}
