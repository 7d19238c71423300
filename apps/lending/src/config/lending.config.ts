import { Equals, IsIn, IsInt, IsString, Matches, Max, Min, ValidateIf } from 'class-validator';
import { DataServiceConfig, Sensitive } from '@platform/config';
import { MinChars } from '@platform/envelope';
import { service } from '@platform/registry';
import { withWebhookSettings } from '@platform/webhooks';

export const TENANCY_MODES = ['shared', 'database-per-tenant'] as const;
export type TenancyMode = (typeof TENANCY_MODES)[number];

/** Check providers of applications: `stub` (deterministic, calls nothing) or `live` (real adapters). */
export const PROVIDER_MODES = ['stub', 'live'] as const;
export type ProviderMode = (typeof PROVIDER_MODES)[number];

/** Development default of the webhook secrets' encryption key: refused when set in production. */
export const DEV_WEBHOOKS_SECRET_KEY = 'dev-only-lending-webhooks-secret-key';

export class LendingConfig extends withWebhookSettings(DataServiceConfig, DEV_WEBHOOKS_SECRET_KEY) {
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
  @Matches(/^[\s\S]{16,}$/, {
    message: 'LENDING_TENANT_DB_KEY must be at least 16 characters in database-per-tenant mode',
  })
  LENDING_TENANT_DB_KEY = '';
  /** At most this many tenant databases have an open pool at once (least recently used closes first). */
  @IsInt() @Min(1) @Max(1000) LENDING_TENANT_POOLS_MAX = 20;
  /** A tenant's pool closes after this long without a transaction. */
  @IsInt() @Min(1000) LENDING_TENANT_POOL_IDLE_MS = 300_000;
  /** Connections per tenant database pool (2 at least: migrating a tenant takes two). */
  @IsInt() @Min(2) @Max(100) LENDING_TENANT_POOL_SIZE = 5;
  /**
   * Where customer documents are stored on local disk (`<dir>/<organization>/<customer>/<uuid>`);
   * every replica must see the same directory (docs/lending/customers.md, "Storage").
   */
  @IsString() @MinChars(1) LENDING_DOCUMENTS_DIR = '.local/lending-documents';
  /** Largest customer document accepted; the gateway's upload route forwards 10 MiB at most. */
  @IsInt() @Min(1024) @Max(10 * 1024 * 1024) LENDING_DOCUMENT_MAX_BYTES = 10 * 1024 * 1024;
  /**
   * The providers behind application checks (identity, credit bureau, AML, scoring;
   * docs/lending/applications.md): `stub` answers in full and deterministically from documented magic
   * inputs and calls nothing; `live` needs real adapters, which this build does not have yet (boot
   * fails naming the missing one).
   */
  @IsIn(PROVIDER_MODES) LENDING_PROVIDERS: ProviderMode = 'stub';
  /** Production refuses to start on stub providers unless this says so on purpose (before go-live). */
  @ValidateIf((c: LendingConfig) => c.NODE_ENV === 'production' && c.LENDING_PROVIDERS === 'stub')
  @Equals(true, {
    message: 'LENDING_PROVIDERS=stub in production needs LENDING_ALLOW_STUB_PROVIDERS=true',
  })
  LENDING_ALLOW_STUB_PROVIDERS = false;
  /** A provider call unanswered after this long fails its check step as `error` (logged as timeout). */
  @IsInt() @Min(100) @Max(120_000) LENDING_PROVIDER_TIMEOUT_MS = 15_000;
  /**
   * Days a partner key's request log is kept (docs/lending/api-keys.md); older lines are purged in
   * batches, every hour, by any replica.
   */
  @IsInt() @Min(1) @Max(3650) LENDING_REQUEST_LOG_RETENTION_DAYS = 30;
  /**
   * How long a money operation waits for another request holding the same Idempotency-Key before
   * answering 409 IDEMPOTENCY_REQUEST_IN_PROGRESS (docs/lending/loans.md, "Idempotency"): concurrent
   * identical requests wait for the first and all answer what it committed.
   */
  @IsInt() @Min(100) @Max(60_000) LENDING_IDEMPOTENCY_WAIT_MS = 10_000;
  /** Hours an Idempotency-Key and its stored answer are kept (the spec's floor is 24). */
  @IsInt() @Min(24) @Max(24 * 90) LENDING_IDEMPOTENCY_TTL_HOURS = 24;
  /**
   * How often each replica runs the accruals job (docs/lending/loans.md, "Accruals"): every active loan
   * of every organization brought up to today, each loan claimed with FOR UPDATE SKIP LOCKED so replicas
   * share the work; a day is posted once whoever runs it. The first run comes at a random point of the
   * first interval. 0 turns the job off (operations still catch their loan up before they book).
   */
  @IsInt() @Min(0) @Max(86_400_000) LENDING_ACCRUALS_INTERVAL_MS = 3_600_000;
  /**
   * POST /Loans/RunAccruals (accruals up to an `asOf` date, never after today): `auto` answers it
   * everywhere but production, `on` and `off` say so explicitly.
   */
  @IsIn(['auto', 'on', 'off']) LENDING_ACCRUALS_ROUTE: 'auto' | 'on' | 'off' = 'auto';

  // Webhooks: the WEBHOOKS_* settings are libs/webhooks' withWebhookSettings (decision 0018).
  /** Webhook subscriptions one organization may have. */
  @IsInt() @Min(1) @Max(1000) WEBHOOK_SUBSCRIPTIONS_MAX_PER_ORGANIZATION = 20;

  // The daily accounting file (docs/lending/events.md, "Daily accounting file").
  /**
   * How often each replica closes the accounting days that have ended (yesterday and any before it
   * still open) for every organization, and writes their files; 0 turns the job off (CloseAccountingDay
   * still closes on request). Replicas racing for a day wait for one another: a day closes once.
   */
  @IsInt() @Min(0) @Max(86_400_000) LENDING_ACCOUNTING_CLOSE_INTERVAL_MS = 600_000;
  /**
   * Where the job also writes each closed day's file and its `.sha256` for a file exchange
   * (`<dir>/<organization>/<YYYY>/`); empty: files are only served by GetAccountingFile.
   */
  @IsString() LENDING_ACCOUNTING_FILES_DIR = '';

  /** Whether POST /Loans/RunAccruals is served (LENDING_ACCRUALS_ROUTE). */
  accrualsRouteOn(): boolean {
    return this.LENDING_ACCRUALS_ROUTE === 'auto'
      ? this.NODE_ENV !== 'production'
      : this.LENDING_ACCRUALS_ROUTE === 'on';
  }
}
