import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { TenantPools, dataSourceOptions, type TenantLease } from '@platform/persistence';
import { Periodic } from '@platform/scheduling';
import { LendingError, lendingError } from '../common/lending.errors';
import { LendingConfig } from '../config/lending.config';
import { LENDING_DATABASE } from '../database';
import { TenantDatabasesRepository } from './tenant-databases.unscoped.repository';
import { TenantDbCrypto } from './tenant-db-crypto';

/**
 * Which database an organization's data lives in (decision 0025). `shared`: the app's own database for
 * everyone (row-level security keeps them apart). `database-per-tenant`: the organization's database
 * from the tenant registry, through TenantPools (@platform/persistence: opened on first use and
 * migrated then, at most LENDING_TENANT_POOLS_MAX at once, closed after LENDING_TENANT_POOL_IDLE_MS
 * unused); its organization row is copied there for the tables' foreign keys. At start every
 * registered tenant database is migrated, so a release never leaves one behind.
 */
@Injectable()
export class TenantConnections implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('TenantConnections');
  private readonly crypto?: TenantDbCrypto;
  private readonly pools?: TenantPools;
  /** This process's idle pools, closed every half idle period (at most 30 s). */
  private readonly sweeper = new Periodic({
    name: 'TenantConnections',
    scope: 'process',
    everyMs: () =>
      this.pools ? Math.min(30_000, Math.max(250, Math.floor(this.cfg.LENDING_TENANT_POOL_IDLE_MS / 2))) : 0,
    firstRound: { spreadWithinMs: 30_000 },
    work: () => this.closeIdle(),
  });

  constructor(
    private readonly registry: TenantDatabasesRepository,
    private readonly cfg: LendingConfig,
  ) {
    if (cfg.LENDING_TENANCY_MODE !== 'database-per-tenant') return;
    const crypto = new TenantDbCrypto(cfg.LENDING_TENANT_DB_KEY);
    this.crypto = crypto;
    this.pools = new TenantPools({
      maxPools: cfg.LENDING_TENANT_POOLS_MAX,
      idleMs: cfg.LENDING_TENANT_POOL_IDLE_MS,
      poolSize: cfg.LENDING_TENANT_POOL_SIZE,
      urlOf: async (org) => {
        const sealed = await registry.sealedUrl(org);
        return sealed ? crypto.open(sealed) : null;
      },
      options: (url, poolMax) =>
        dataSourceOptions({
          ...LENDING_DATABASE,
          url,
          poolMax,
          applicationName: `lending-tenant-${cfg.INSTANCE_ID}`,
        }),
      prepare: (ds, org) => registry.copyOrganization(ds, org),
      missing: () => lendingError(LendingError.TENANT_DATABASE_MISSING),
      busy: () => lendingError(LendingError.TENANT_CAPACITY),
    });
  }

  /** Tenants with an open pool, least recently used first (database-per-tenant). */
  get openPools(): string[] {
    return this.pools?.open ?? [];
  }

  async onApplicationBootstrap(): Promise<void> {
    if (!this.pools || !this.crypto) return;
    for (const t of await this.registry.all()) {
      const applied = await this.pools.migrate(t.organizationId, this.crypto.open(t.sealed));
      if (applied.length) this.logger.log(`tenant ${t.organizationId}: applied ${applied.join(', ')}`);
    }
    this.sweeper.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.sweeper.stop();
    await this.pools?.close();
  }

  /** The organization's database for one unit of work (`release` when done); null: the shared one. */
  acquire(organizationId: string): Promise<TenantLease> | null {
    return this.pools ? this.pools.acquire(organizationId) : null;
  }

  /** Registers (or moves) an organization's database: migrated, organization copied, URL sealed. */
  async register(organizationId: string, url: string): Promise<string[]> {
    if (!this.pools || !this.crypto) throw new Error('LENDING_TENANCY_MODE is not database-per-tenant');
    if (!(await this.registry.organization(organizationId)))
      throw new Error(`no organization ${organizationId}`);
    const applied = await this.pools.migrate(organizationId, url);
    await this.registry.put(organizationId, this.crypto.seal(url));
    await this.pools.forget(organizationId);
    return applied;
  }

  /** Closes idle pools now (the timer does it every half idle period). */
  closeIdle(): Promise<number> {
    return this.pools?.closeIdle() ?? Promise.resolve(0);
  }
}
