import { PeriodicJob } from '@platform/scheduling';
import { asOrganizationId, type OrganizationId, type OwnersRepository } from '@platform/tenancy';

const HOUR_MS = 3_600_000;
/** Rows per DELETE: short statements and locks, whatever the backlog. */
const PURGE_BATCH = 5000;

/**
 * An hourly purge of an organization-owned table on every replica (PeriodicJob: the first round at a
 * random point of the first hour, so replicas started together do not purge together): organization by
 * organization, in batches, each batch in its own transaction of the organization. Replicas purging at
 * once skip each other's rows (SKIP LOCKED) rather than wait, and deleting what is already deleted is
 * harmless, so they need no coordination. An organization whose purge fails is logged and skipped: the
 * next one, and the next round, may fare better (its database unreachable...).
 */
export abstract class TenantPurgeJob extends PeriodicJob<number> {
  protected constructor(
    name: string,
    private readonly owners: OwnersRepository,
  ) {
    super(name, HOUR_MS);
  }

  /** What goes: rows older than this, for a purge at `now`. */
  protected abstract cutoff(now: Date): Date;

  /** Deletes up to `batch` of the organization's rows older than `before`; how many it deleted. */
  protected abstract purgeBatch(organizationId: OrganizationId, before: Date, batch: number): Promise<number>;

  /** The line logged after a purge that deleted something. */
  protected abstract purged(deleted: number, before: Date): string;

  protected intervalMs(): number {
    return HOUR_MS;
  }

  protected work(): Promise<number> {
    return this.purge();
  }

  /** Purges every organization's old rows; returns how many (tests call it). */
  async purge({
    now = new Date(),
    batch = PURGE_BATCH,
  }: { now?: Date; batch?: number } = {}): Promise<number> {
    const before = this.cutoff(now);
    let deleted = 0;
    for (const id of await this.owners.ids()) {
      if (this.stopping) break;
      deleted += await this.purgeOrganization(asOrganizationId(id), before, batch);
    }
    if (deleted) this.logger.log(this.purged(deleted, before));
    return deleted;
  }

  private async purgeOrganization(organizationId: OrganizationId, before: Date, batch: number) {
    let deleted = 0;
    try {
      for (;;) {
        const n = await this.purgeBatch(organizationId, before, batch);
        deleted += n;
        if (n < batch || this.stopping) return deleted;
      }
    } catch (err) {
      this.logger.warn(`${organizationId}: ${(err as Error).message}`);
      return deleted;
    }
  }
}
