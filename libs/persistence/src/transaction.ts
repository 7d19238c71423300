import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { inTenantTransaction, type TenantIdentity } from './tenant-pools';

export type IsolationLevel = 'READ COMMITTED' | 'REPEATABLE READ' | 'SERIALIZABLE';

declare const TX: unique symbol;

/**
 * A transaction as services see it: an opaque handle they pass on to repositories. It has no methods,
 * so a service cannot query through it; a repository opens it with `txManager` (which a lint rule
 * allows only in `*.repository.ts`).
 */
export interface Tx {
  readonly [TX]: 'transaction';
}

/** For repositories only: the transaction's entity manager. */
export function txManager(tx: Tx): EntityManager {
  return tx as unknown as EntityManager;
}

const asTx = (m: EntityManager): Tx => m as unknown as Tx;

/**
 * Runs `work` in one transaction: the business rows, the change journal and the outbox event commit
 * together or not at all. READ COMMITTED is PostgreSQL's default, so it is not set explicitly (that
 * would cost a round trip per transaction).
 */
export function inTransaction<R>(
  ds: DataSource,
  work: (tx: EntityManager) => Promise<R>,
  isolation: IsolationLevel = 'READ COMMITTED',
): Promise<R> {
  return isolation === 'READ COMMITTED' ? ds.transaction(work) : ds.transaction(isolation, work);
}

/** The unit of work a service opens; repositories receive its `tx`. */
@Injectable()
export class Transactions {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  run<R>(work: (tx: Tx) => Promise<R>, isolation: IsolationLevel = 'READ COMMITTED'): Promise<R> {
    return inTransaction(this.ds, (m) => work(asTx(m)), isolation);
  }

  /** A transaction as a tenant under row-level security (`inTenantTransaction`), on this database. */
  asTenant<R>(
    who: TenantIdentity,
    work: (tx: Tx) => Promise<R>,
    isolation: IsolationLevel = 'READ COMMITTED',
  ) {
    return inTenantTransaction(this.ds, who, work, isolation);
  }
}
