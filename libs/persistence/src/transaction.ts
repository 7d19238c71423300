import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';

export type IsolationLevel = 'READ COMMITTED' | 'REPEATABLE READ' | 'SERIALIZABLE';

/**
 * A transaction handle as services see it. Services pass it to repositories and never query it
 * themselves (a lint rule enforces that): only repositories speak SQL.
 */
export type Tx = EntityManager;

/**
 * Runs `work` in one transaction: the business rows, the change journal and the outbox event commit
 * together or not at all. READ COMMITTED is PostgreSQL's default, so it is not set explicitly (that
 * would cost a round trip per transaction).
 */
export function inTransaction<R>(
  ds: DataSource,
  work: (tx: Tx) => Promise<R>,
  isolation: IsolationLevel = 'READ COMMITTED',
): Promise<R> {
  return isolation === 'READ COMMITTED' ? ds.transaction(work) : ds.transaction(isolation, work);
}

/** The unit of work a service opens; repositories receive its `tx`. */
@Injectable()
export class Transactions {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  run<R>(work: (tx: Tx) => Promise<R>, isolation: IsolationLevel = 'READ COMMITTED'): Promise<R> {
    return inTransaction(this.ds, work, isolation);
  }
}
