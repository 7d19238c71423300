import { createHash } from 'node:crypto';
import { applyDecorators, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { IdempotencyError, idempotencyError } from './idempotency.errors';

/** The request header naming an operation once (RFC draft "The Idempotency-Key HTTP Header Field"). */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** Answers replayed from a stored first answer carry this header (`true`); the body is the same bytes. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';
/** Visible ASCII without spaces, 1-255 characters: room for a UUID or a prefixed ULID. */
const KEY = /^[\x21-\x7e]{1,255}$/;

/** What an idempotent operation needs of its request; made by `@Idempotency()`. */
export interface IdempotentRequest {
  key: string;
  /** SHA-256 of the method, the route and the canonical body and query. */
  requestHash: string;
  /** `POST /Loans/MakePayment`: the route as declared, whatever case the caller used. */
  route: string;
  /** Called when the answer is a replay of the first one (sets `Idempotent-Replayed: true`). */
  replayed(): void;
}

/** JSON with every object's keys sorted, so `{a,b}` and `{b,a}` are the same request. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function requestHash(method: string, route: string, body: unknown, query: unknown): string {
  return createHash('sha256')
    .update(canonicalJson([method.toUpperCase(), route.toLowerCase(), body ?? null, query ?? {}]))
    .digest('hex');
}

/** The request's key, checked: missing -> 400 IDEMPOTENCY_KEY_MISSING, malformed -> 400 _INVALID. */
export function idempotentRequestOf(req: Request, res: Response): IdempotentRequest {
  const raw = req.headers[IDEMPOTENCY_HEADER.toLowerCase()];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (key === undefined || key === '') throw idempotencyError(IdempotencyError.KEY_MISSING);
  if (!KEY.test(key)) throw idempotencyError(IdempotencyError.KEY_INVALID);
  const routePath = (req.route as { path?: unknown } | undefined)?.path;
  const route = `${req.method} ${typeof routePath === 'string' ? routePath : req.path}`;
  return {
    key,
    route,
    requestHash: requestHash(req.method, route, req.body, req.query),
    replayed: () => res.setHeader(REPLAYED_HEADER, 'true'),
  };
}

/**
 * The idempotency of the request, as a handler parameter: `@Idempotency() op: IdempotentRequest`. The
 * handler passes it to `IdempotentOperations.run`, which holds the key, replays or runs the operation
 * and stores its answer in the operation's own transaction.
 */
export const Idempotency = createParamDecorator((_: unknown, ctx: ExecutionContext): IdempotentRequest => {
  const http = ctx.switchToHttp();
  return idempotentRequestOf(http.getRequest<Request>(), http.getResponse<Response>());
});

/** The header in the API reference of a route that takes `@Idempotency()`, described as the service says. */
export const IdempotentOperation = (description: string) =>
  applyDecorators(ApiHeader({ name: IDEMPOTENCY_HEADER, required: true, description }));
