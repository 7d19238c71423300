import { IsIn, IsInt, IsString, Max, Min, ValidateIf } from 'class-validator';
import { DataServiceConfig, Sensitive } from '@platform/config';
import { MinChars } from '@platform/envelope';
import { service } from '@platform/registry';

export const TENANCY_MODES = ['shared', 'database-per-tenant'] as const;
export type TenancyMode = (typeof TENANCY_MODES)[number];

export class LendingConfig extends DataServiceConfig {
  override PORT = service('lending').port;
  override KAFKA_CLIENT_ID = service('lending').name;
  /**
   * Where an organization's lending data lives (decision 0025): `shared`, one database with
   * PostgreSQL row-level security per organization; `database-per-tenant`, the database the tenant
   * registry names for the organization (DATABASE_URL then holds organizations, keys and the registry).
   */
  @IsIn(TENANCY_MODES) LENDING_TENANCY_MODE: TenancyMode = 'shared';
  /**
   * Encrypts the tenant registry's connection URLs (AES-256-GCM under a key derived from it): a
   * database dump alone does not give away every tenant's credentials. Required per tenant database.
   */
  @Sensitive()
  @ValidateIf((c: LendingConfig) => c.LENDING_TENANCY_MODE === 'database-per-tenant')
  @IsString()
  @MinChars(16)
  LENDING_TENANT_DB_KEY = '';
  /** At most this many tenant databases have an open pool at once (least recently used closes first). */
  @IsInt() @Min(1) @Max(1000) LENDING_TENANT_POOLS_MAX = 20;
  /** A tenant's pool closes after this long without a transaction. */
  @IsInt() @Min(1000) LENDING_TENANT_POOL_IDLE_MS = 300_000;
  /** Connections per tenant database pool (2 at least: migrating a tenant takes two). */
  @IsInt() @Min(2) @Max(100) LENDING_TENANT_POOL_SIZE = 5;
}
