import type { DataSource, EntityManager } from 'typeorm';

export type IsolationLevel = 'READ COMMITTED' | 'REPEATABLE READ' | 'SERIALIZABLE';

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
