import * as pg from 'pg';
import type { DataSource } from 'typeorm';

const pools = new WeakMap<object, { pool?: pg.Pool }>();

/**
 * node-postgres for TypeORM's public `driver` option, with a Pool that records itself: the app reaches
 * the pool its DataSource created (poolOf) without reading the ORM's internals (TypeORM keeps it as the
 * undocumented `driver.master`). One module object per DataSource, so each finds its own pool.
 */
export function poolRecordingPg(): typeof pg {
  const holder: { pool?: pg.Pool } = {};
  class RecordedPool extends pg.Pool {
    constructor(config?: pg.PoolConfig) {
      super(config);
      holder.pool = this;
    }
  }
  const driver = { ...pg, Pool: RecordedPool } as typeof pg;
  pools.set(driver, holder);
  return driver;
}

/**
 * The node-postgres Pool of a DataSource made with `dataSourceOptions` (its `driver` is
 * poolRecordingPg's), once initialized; undefined before, or for a DataSource made otherwise.
 */
export function poolOf(ds: DataSource): pg.Pool | undefined {
  const driver = (ds.options as { driver?: object }).driver;
  return driver ? pools.get(driver)?.pool : undefined;
}
