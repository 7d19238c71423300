// Unscoped: one statement appends a batch of many accounts' request lines (an append-only log operators read).
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { RequestLogRecord } from './request-log.entity';

export type RequestLogLine = Omit<RequestLogRecord, 'id'>;

/** Append-only; a product's own log, read by operators (not tenant-scoped: keyed by key and product). */
@Injectable()
export class RequestLogRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Many lines as one statement (one round trip, one commit), each with the time it was answered. */
  async recordMany(lines: RequestLogLine[]): Promise<void> {
    if (!lines.length) return;
    const rows = lines.map((l) => ({
      at: l.at.toISOString(),
      key_id: l.keyId,
      product_id: l.productId,
      account_id: l.accountId,
      method: l.method,
      path: l.path,
      status: l.status,
      latency_ms: l.latencyMs,
      request_id: l.requestId,
    }));
    await this.ds.query(
      `INSERT INTO request_log (at, key_id, product_id, account_id, method, path, status, latency_ms, request_id)
       SELECT at, key_id, product_id, account_id, method, path, status, latency_ms, request_id
         FROM jsonb_to_recordset($1::jsonb) AS r(at timestamptz, key_id text, product_id text, account_id text,
              method text, path text, status integer, latency_ms integer, request_id text)`,
      [JSON.stringify(rows)],
    );
  }
}
