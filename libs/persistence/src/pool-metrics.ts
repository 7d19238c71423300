import type { DataSource } from 'typeorm';
import { trackConnectionPool, type PoolCounts } from '@platform/observability';

/**
 * Reports a TypeORM DataSource's connection pool (`db_pool_*{pool="<name>"}`, libs/observability) at
 * every scrape until the DataSource is destroyed. TypeORM's postgres driver keeps node-postgres's Pool
 * as `driver.master`.
 */
export function trackDataSourcePool(name: string, ds: DataSource): () => void {
  return trackConnectionPool(name, () =>
    ds.isInitialized ? ((ds.driver as unknown as { master?: PoolCounts }).master ?? undefined) : undefined,
  );
}
