import { Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { DataSource } from 'typeorm';
import { requestIdOf } from '@platform/envelope';
import type { CalendarPrincipal } from '../auth/calendar.guard';

const logger = new Logger('RequestLog');

/**
 * The spec's request log for non-default keys: method, path (no query string), status, latency, key id,
 * account. Never headers, secrets or bodies. Written after the response is sent, off the request path.
 */
export function requestLogMiddleware(ds: DataSource) {
  return (req: Request & { principal?: CalendarPrincipal }, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const p = req.principal;
      if (p?.kind !== 'product' || p.isDefaultKey) return;
      const latencyMs = Math.round(Number(process.hrtime.bigint() - started) / 1e6);
      ds.query(
        `INSERT INTO calendar.request_log (key_id, product_id, account_id, method, path, status, latency_ms, request_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          p.keyId,
          p.productId,
          p.accountId,
          req.method,
          req.originalUrl.split('?')[0],
          res.statusCode,
          latencyMs,
          requestIdOf(req),
        ],
      ).catch((err: Error) => logger.warn(`request log write failed: ${err.message}`));
    });
    next();
  };
}
