import type { NextFunction, Request, Response } from 'express';
import { requestIdOf } from '@platform/envelope';
import type { CalendarPrincipal } from '../auth/calendar.access';
import type { RequestLogWriter } from './request-log.writer';

/**
 * The spec's request log for non-default keys: method, path (no query string), status, latency, key id,
 * account. Never headers, secrets or bodies. Handed to the writer after the response is sent; it writes
 * lines in batches, off the request path.
 */
export function requestLogMiddleware(log: RequestLogWriter) {
  return (req: Request & { principal?: CalendarPrincipal }, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const p = req.principal;
      if (p?.kind !== 'key' || p.isDefault) return;
      log.record({
        at: new Date(),
        keyId: p.keyId,
        productId: p.productId,
        accountId: p.accountId,
        method: req.method,
        path: req.originalUrl.split('?')[0],
        status: res.statusCode,
        latencyMs: Math.round(Number(process.hrtime.bigint() - started) / 1e6),
        requestId: requestIdOf(req),
      });
    });
    next();
  };
}
