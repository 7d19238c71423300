import type { DataSource, EntityManager } from 'typeorm';

export type IsolationLevel = 'READ COMMITTED' | 'REPEATABLE READ' | 'SERIALIZABLE';

/**
 * Runs `work` in one transaction: the business rows, the change journal and the outbox event commit
 * together or not at all.
 */
export function inTransaction<R>(
  ds: DataSource,
  work: (tx: EntityManager) => Promise<R>,
  isolation: IsolationLevel = 'READ COMMITTED',
): Promise<R> {
  return ds.transaction(isolation, work);
}
