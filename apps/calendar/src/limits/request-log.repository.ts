import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { RequestLogRecord } from './request-log.entity';

export type RequestLogLine = Omit<RequestLogRecord, 'id' | 'at'>;

/** Append-only; a product's own log, read by operators (not tenant-scoped: keyed by key and product). */
@Injectable()
export class RequestLogRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async record(line: RequestLogLine): Promise<void> {
    await this.ds.getRepository(RequestLogRecord).insert(line);
  }
}
