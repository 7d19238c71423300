import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { OwnersRepository, asOrganizationId, type OrganizationId } from '@platform/tenancy';
import { LendingConfig } from '../config/lending.config';
import { TenantData } from '../tenancy/tenant-data';
import { KeyRequestsRepository } from './key-requests.repository';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Rows per DELETE: short statements and locks, whatever the backlog. */
const PURGE_BATCH = 5000;

/**
 * Keeps the key request log to `LENDING_REQUEST_LOG_RETENTION_DAYS`. Every replica purges hourly (the
 * first run at a random point of its first hour, so replicas started together do not purge together):
 * per organization, in its own tenant transaction under row-level security (on the control database,
 * where the log lives in both tenancy modes: TenantData.withKeys), in batches of PURGE_BATCH oldest rows. Two replicas purging at once skip each other's rows
 * (SKIP LOCKED) rather than wait; a replica that finds nothing old costs one index probe per
 * organization.
 */
@Injectable()
export class KeyRequestLogRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('KeyRequestLogRetention');
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;
  private stopping = false;

  constructor(
    private readonly cfg: LendingConfig,
    private readonly owners: OwnersRepository,
    private readonly data: TenantData,
    private readonly requests: KeyRequestsRepository,
  ) {}

  onApplicationBootstrap(): void {
    this.schedule(Math.floor(Math.random() * HOUR_MS));
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }

  private schedule(inMs: number): void {
    this.timer = setTimeout(() => {
      void this.purge()
        .catch((err: Error) => this.logger.warn(`purge failed: ${err.message}`))
        .finally(() => !this.stopping && this.schedule(HOUR_MS));
    }, inMs);
    this.timer.unref();
  }

  /** Deletes every organization's lines older than the retention; returns how many (one run at a time). */
  purge(opts: { now?: Date; batch?: number } = {}): Promise<number> {
    this.running ??= this.purgeAll(opts).finally(() => (this.running = undefined));
    return this.running;
  }

  private async purgeAll({ now = new Date(), batch = PURGE_BATCH }: { now?: Date; batch?: number }) {
    const before = new Date(now.getTime() - this.cfg.LENDING_REQUEST_LOG_RETENTION_DAYS * DAY_MS);
    let deleted = 0;
    for (const id of await this.owners.ids()) {
      if (this.stopping) break;
      deleted += await this.purgeOrganization(asOrganizationId(id), before, batch);
    }
    if (deleted) this.logger.log(`purged ${deleted} key request log lines before ${before.toISOString()}`);
    return deleted;
  }

  private async purgeOrganization(organizationId: OrganizationId, before: Date, batch: number) {
    let deleted = 0;
    try {
      for (;;) {
        const n = await this.data.withKeys(organizationId, (tx) =>
          this.requests.purgeBatch(organizationId, before, batch, tx),
        );
        deleted += n;
        if (n < batch || this.stopping) return deleted;
      }
    } catch (err) {
      // The next organization, and the next run, may fare better.
      this.logger.warn(`${organizationId}: ${(err as Error).message}`);
      return deleted;
    }
  }
}
