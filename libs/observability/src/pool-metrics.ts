import { ScrapedGauges } from './metrics';

/** What node-postgres's `Pool` counts (TypeORM's postgres driver keeps one as `driver.master`). */
export interface PoolCounts {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
  options?: { max?: number };
}

interface PoolSource {
  name: string;
  /** The pool, or undefined once it is closed. */
  counts(): PoolCounts | undefined;
}

const pools = new ScrapedGauges<PoolSource, 'open' | 'idle' | 'waiting' | 'max', 'pool'>(
  {
    open: { name: 'db_pool_connections', help: 'Connections the pool holds open (busy and idle).' },
    idle: { name: 'db_pool_idle_connections', help: 'Open connections not running a query.' },
    waiting: {
      name: 'db_pool_waiting_clients',
      help: 'Queries waiting for a connection: above 0 for long, the pool (DB_POOL_MAX) is too small or queries too slow.',
    },
    max: { name: 'db_pool_max_connections', help: 'The most connections the pool may open (DB_POOL_MAX).' },
  },
  ['pool'],
  (source) => {
    const c = source.counts();
    if (!c) return undefined;
    const labels = { pool: source.name };
    return {
      open: [{ labels, value: c.totalCount }],
      idle: [{ labels, value: c.idleCount }],
      waiting: [{ labels, value: c.waitingCount }],
      max: c.options?.max === undefined ? [] : [{ labels, value: c.options.max }],
    };
  },
);

/**
 * Reports a connection pool's counts at every scrape, labelled `pool="<name>"` (the app's name, or
 * `<app>-<purpose>` for a second pool). Returns the removal; a pool whose `counts` answers undefined
 * (closed) is removed by itself.
 */
export function trackConnectionPool(name: string, counts: () => PoolCounts | undefined): () => void {
  return pools.add({ name, counts });
}
