import type { DataSource } from 'typeorm';
import { trackConnectionPool } from '@platform/observability';
import { poolOf } from './pg-pool';

/**
 * Reports a DataSource's connection pool (`db_pool_*{pool="<name>"}`, libs/observability) at every
 * scrape until the DataSource is destroyed: the Pool its `dataSourceOptions` driver recorded (poolOf).
 */
export function trackDataSourcePool(name: string, ds: DataSource): () => void {
  return trackConnectionPool(name, () => (ds.isInitialized ? poolOf(ds) : undefined));
}
