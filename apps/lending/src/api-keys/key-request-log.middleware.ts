import { Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { RequestWithPrincipal } from '@platform/auth';
import { requestIdOf } from '@platform/envelope';
import type { PartnerPrincipal } from '../tenancy/scopes';
import { KeyRequestLogWriter } from './key-request-log.writer';

/** Longer paths are cut: a log line, not a copy of whatever a client sends. */
const MAX_PATH = 512;

/**
 * Every call a partner key made that got past authentication and its scopes (the guard attaches the
 * principal only then): method, path without the query string (where secrets and personal data would
 * travel), status, duration, request id. Never headers or bodies. Handed to the writer once the answer
 * is sent; the writer stores it in batches, off the request path.
 */
@Injectable()
export class KeyRequestLogMiddleware implements NestMiddleware {
  constructor(private readonly log: KeyRequestLogWriter) {}

  use(req: Request & RequestWithPrincipal<PartnerPrincipal>, res: Response, next: NextFunction): void {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const p = req.principal;
      if (p?.kind !== 'key') return;
      this.log.record({
        organizationId: p.ownerId,
        keyId: p.keyId,
        at: new Date(),
        method: req.method,
        path: req.originalUrl.split('?')[0].slice(0, MAX_PATH),
        status: res.statusCode,
        durationMs: Math.round(Number(process.hrtime.bigint() - started) / 1e6),
        requestId: requestIdOf(req),
      });
    });
    next();
  }
}
