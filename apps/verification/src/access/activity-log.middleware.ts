import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { RequestWithPrincipal } from '@platform/auth';
import { requestIdOf } from '@platform/envelope';
import type { OrganizationPrincipal } from '../tenancy/scopes';
import { ActivityLogWriter } from './activity-log.writer';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const MAX_ID = 128;

/**
 * Every authenticated write as answered (the guard attaches the principal only to callers it let
 * through): the key id and scheme, the route pattern (`/api/v1/verification-cases/:id/cancel`, never
 * the raw URL), the target (the `:id` of the path, or the `value.id` a create answered), the status
 * and the request id. Handed to the writer once the answer is sent. Never headers or bodies.
 */
@Injectable()
export class ActivityLogMiddleware implements NestMiddleware {
  constructor(private readonly log: ActivityLogWriter) {}

  use(req: Request & RequestWithPrincipal<OrganizationPrincipal>, res: Response, next: NextFunction): void {
    if (!WRITES.has(req.method)) return next();
    let createdId: string | undefined;
    const json = res.json.bind(res);
    res.json = (body?: unknown) => {
      const id = (body as { value?: { id?: unknown } } | undefined)?.value?.id;
      if (typeof id === 'string') createdId = id;
      return json(body);
    };
    res.on('finish', () => {
      const p = req.principal;
      if (p?.kind !== 'key') return;
      const route = (req.route as { path?: unknown } | undefined)?.path;
      const param = (req.params as Record<string, unknown> | undefined)?.id;
      const target = typeof param === 'string' ? param : createdId;
      this.log.record({
        organizationId: p.ownerId,
        at: new Date(),
        actor: p.keyId,
        actorKind: p.scheme,
        method: req.method,
        route: typeof route === 'string' ? route : req.path,
        targetId: target ? target.slice(0, MAX_ID) : null,
        status: res.statusCode,
        requestId: requestIdOf(req) ?? null,
      });
    });
    next();
  }
}
