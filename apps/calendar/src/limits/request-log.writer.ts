import { Injectable } from '@nestjs/common';
import { BatchWriter } from '@platform/persistence';
import { RequestLogRepository, type RequestLogLine } from './request-log.unscoped.repository';

/**
 * The request log off the request path: lines gather in this replica for at most 200 ms (or 500 lines)
 * and go to PostgreSQL as one statement, so a logged request costs no write of its own (a read used to
 * carry an INSERT and its commit). The batching, retry and shutdown flush are @platform/persistence's
 * BatchWriter, shared with lending's key request log (decision 0015).
 */
@Injectable()
export class RequestLogWriter extends BatchWriter<RequestLogLine> {
  constructor(private readonly repo: RequestLogRepository) {
    super({
      what: 'request log',
      context: 'RequestLog',
      flushEveryMs: 200,
      flushAt: 500,
      maxPending: 20_000,
    });
  }

  protected write(lines: RequestLogLine[]): Promise<void> {
    return this.repo.recordMany(lines);
  }
}
