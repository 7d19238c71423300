import { Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { requestIdOf } from '@platform/envelope';
import type { CalendarPrincipal } from '../auth/calendar.access';
import type { RequestLogRepository } from './request-log.repository';

const logger = new Logger('RequestLog');

/**
 * The spec's request log for non-default keys: method, path (no query string), status, latency, key id,
 * account. Never headers, secrets or bodies. Written after the response is sent, off the request path.
 */
export function requestLogMiddleware(log: RequestLogRepository) {
  return (req: Request & { principal?: CalendarPrincipal }, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const p = req.principal;
      if (p?.kind !== 'key' || p.isDefault) return;
      log
        .record({
          keyId: p.keyId,
          productId: p.productId,
          accountId: p.accountId,
          method: req.method,
          path: req.originalUrl.split('?')[0],
          status: res.statusCode,
          latencyMs: Math.round(Number(process.hrtime.bigint() - started) / 1e6),
          requestId: requestIdOf(req),
        })
        .catch((err: Error) => logger.warn(`request log write failed: ${err.message}`));
    });
    next();
  };
}
