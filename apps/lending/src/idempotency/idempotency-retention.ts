import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { OwnersRepository, asOrganizationId, type OrganizationId } from '@platform/tenancy';
import { TenantData } from '../tenancy/tenant-data';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';

const HOUR_MS = 3_600_000;
/** Rows per DELETE: short statements and locks, whatever the backlog. */
const PURGE_BATCH = 5000;

/**
 * Purges expired Idempotency-Keys (kept LENDING_IDEMPOTENCY_TTL_HOURS, at least 24). Every replica runs
 * it hourly, the first time at a random point of its first hour; per organization, in its own tenant
 * transaction (so in the database-per-tenant mode each tenant's database), in batches. Replicas
 * purging together skip each other's rows (SKIP LOCKED) instead of waiting, and deleting what is
 * already deleted is harmless, so several replicas need no coordination. A key met expired by a
 * request is deleted by that request too (IdempotencyKeysRepository.live), so the purge only bounds
 * the table's size.
 */
@Injectable()
export class IdempotencyRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('IdempotencyRetention');
  private timer?: NodeJS.Timeout;
  private running?: Promise<number>;
  private stopping = false;

  constructor(
    private readonly owners: OwnersRepository,
    private readonly data: TenantData,
    private readonly keys: IdempotencyKeysRepository,
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

  /** Deletes every organization's expired keys; returns how many (one run at a time per replica). */
  purge(opts: { now?: Date; batch?: number } = {}): Promise<number> {
    this.running ??= this.purgeAll(opts).finally(() => (this.running = undefined));
    return this.running;
  }

  private async purgeAll({ now = new Date(), batch = PURGE_BATCH }: { now?: Date; batch?: number }) {
    let deleted = 0;
    for (const id of await this.owners.ids()) {
      if (this.stopping) break;
      deleted += await this.purgeOrganization(asOrganizationId(id), now, batch);
    }
    if (deleted) this.logger.log(`purged ${deleted} expired idempotency keys`);
    return deleted;
  }

  private async purgeOrganization(organizationId: OrganizationId, now: Date, batch: number) {
    let deleted = 0;
    try {
      for (;;) {
        const n = await this.data.run(organizationId, (tx) =>
          this.keys.purgeBatch(organizationId, now, batch, tx),
        );
        deleted += n;
        if (n < batch || this.stopping) return deleted;
      }
    } catch (err) {
      // The next organization, and the next run, may fare better (e.g. its database is unreachable).
      this.logger.warn(`${organizationId}: ${(err as Error).message}`);
      return deleted;
    }
  }
}
