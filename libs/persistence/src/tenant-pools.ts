import { DataSource, type DataSourceOptions, type EntityManager } from 'typeorm';
import { migrateSchema } from './migrate';
import { queryPrepared } from './prepared-statement';
import { inTransaction, type IsolationLevel, type Tx } from './transaction';
import { markTenant } from './tenant-session';

export interface TenantPoolsOptions {
  /** At most this many tenant pools open at once; the least recently used idle one closes for a new one. */
  maxPools: number;
  /** A pool unused this long closes (`closeIdle`, called by the owner's timer). */
  idleMs: number;
  /** Connections per tenant pool (2 at least: migrating takes two). */
  poolSize: number;
  /** The tenant's database URL, or null when it has none. */
  urlOf(tenant: string): Promise<string | null>;
  /** TypeORM options for a tenant database. */
  options(url: string, poolMax: number): DataSourceOptions;
  /** Runs after the tenant database's migrations, on every open (e.g. copying the tenant's own row). */
  prepare?(ds: DataSource, tenant: string): Promise<void>;
  /** The errors to answer with: the tenant has no database; every pool is busy. */
  missing(tenant: string): Error;
  busy(): Error;
}

interface Pool {
  ds: DataSource;
  lastUsed: number;
  /** Units of work running on it: a pool in use is never closed. */
  active: number;
}

export interface TenantLease {
  readonly ds: DataSource;
  release(): void;
}

/**
 * Database-per-tenant connections, one pool per tenant database: opened on first use (migrations run
 * then, under the schema's advisory lock, then `prepare`), bounded (`maxPools`; the least recently used
 * idle pool closes to make room, and when every pool is busy `busy()` is thrown, a retryable refusal
 * rather than an unbounded number of connections), and closed after `idleMs` unused. Stateless across
 * replicas: each process keeps its own pools; the registry behind `urlOf` is the shared truth.
 */
export class TenantPools {
  private readonly pools = new Map<string, Pool>();
  private readonly opening = new Map<string, Promise<Pool>>();

  constructor(private readonly opts: TenantPoolsOptions) {}

  /** Tenants with an open pool, least recently used first. */
  get open(): string[] {
    return [...this.pools].sort((a, b) => a[1].lastUsed - b[1].lastUsed).map(([t]) => t);
  }

  async acquire(tenant: string): Promise<TenantLease> {
    const pool = this.pools.get(tenant) ?? (await this.pending(tenant));
    pool.active++;
    pool.lastUsed = Date.now();
    let released = false;
    return {
      ds: pool.ds,
      release: () => {
        if (released) return;
        released = true;
        pool.active--;
        pool.lastUsed = Date.now();
      },
    };
  }

  /** Migrates a tenant database (and prepares it) without keeping a pool; returns the migrations applied. */
  async migrate(tenant: string, url: string): Promise<string[]> {
    const ds = new DataSource(this.opts.options(url, 2));
    await ds.initialize();
    try {
      const applied = await migrateSchema(ds);
      await this.opts.prepare?.(ds, tenant);
      return applied;
    } finally {
      await ds.destroy();
    }
  }

  /** Closes the tenant's pool if idle (its URL changed); a busy pool closes when idle like any other. */
  async forget(tenant: string): Promise<void> {
    const pool = this.pools.get(tenant);
    if (!pool || pool.active) return;
    this.pools.delete(tenant);
    await pool.ds.destroy();
  }

  /** Closes pools unused for `idleMs`; returns how many. */
  async closeIdle(now = Date.now()): Promise<number> {
    const idle = [...this.pools].filter(([, p]) => !p.active && now - p.lastUsed >= this.opts.idleMs);
    for (const [tenant] of idle) this.pools.delete(tenant);
    await Promise.allSettled(idle.map(([, p]) => p.ds.destroy()));
    return idle.length;
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.opening.values()]);
    await Promise.allSettled([...this.pools.values()].map((p) => p.ds.destroy()));
    this.pools.clear();
  }

  private pending(tenant: string): Promise<Pool> {
    let p = this.opening.get(tenant);
    if (!p) {
      p = this.create(tenant).finally(() => this.opening.delete(tenant));
      this.opening.set(tenant, p);
    }
    return p;
  }

  private async create(tenant: string): Promise<Pool> {
    const url = await this.opts.urlOf(tenant);
    if (!url) throw this.opts.missing(tenant);
    if (this.pools.size + this.opening.size > this.opts.maxPools) await this.makeRoom();
    const ds = new DataSource(this.opts.options(url, Math.max(2, this.opts.poolSize)));
    await ds.initialize();
    try {
      await migrateSchema(ds);
      await this.opts.prepare?.(ds, tenant);
    } catch (err) {
      await ds.destroy();
      throw err;
    }
    const pool: Pool = { ds, lastUsed: Date.now(), active: 0 };
    this.pools.set(tenant, pool);
    return pool;
  }

  private async makeRoom(): Promise<void> {
    let victim: [string, Pool] | undefined;
    for (const entry of this.pools)
      if (!entry[1].active && (!victim || entry[1].lastUsed < victim[1].lastUsed)) victim = entry;
    if (!victim) throw this.opts.busy();
    this.pools.delete(victim[0]);
    await victim[1].ds.destroy();
  }
}

/** Who a tenant transaction runs as, and the setting row-level security reads the tenant from. */
export interface TenantIdentity {
  /** A role without BYPASSRLS that the connecting user may switch to. */
  role: string;
  /** A custom setting (`<prefix>.<name>`), set transaction-locally to `tenant`. */
  setting: string;
  tenant: string;
}

/**
 * One transaction as a tenant: switches to the tenant role and sets the tenant setting, both
 * transaction-local (a pooled connection goes back as it came), in one round trip before `work`.
 */
export function inTenantTransaction<R>(
  ds: DataSource,
  who: TenantIdentity,
  work: (tx: Tx) => Promise<R>,
  isolation: IsolationLevel = 'READ COMMITTED',
): Promise<R> {
  return inTransaction(
    ds,
    async (m: EntityManager) => {
      await queryPrepared(m, `SELECT set_config($1, $2, true), set_config('role', $3, true)`, [
        who.setting,
        who.tenant,
        who.role,
      ]);
      // A scoped repository's statements in this transaction then do not set it again.
      markTenant(m, who);
      return work(m as unknown as Tx);
    },
    isolation,
  );
}
