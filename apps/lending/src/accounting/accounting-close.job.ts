import { Injectable } from '@nestjs/common';
import { PeriodicJob } from '@platform/scheduling';
import { OwnersRepository, asOrganizationId, type OrganizationId } from '@platform/tenancy';
import { LendingConfig } from '../config/lending.config';
import { todayUtc } from '../loans/loan-dates';
import { AccountingDaysService } from './accounting-days.service';
import { accountingFileWritten, writeAccountingFile } from './accounting-files';

/** Closed days whose files the job checks are on disk (a replica may have died between close and write). */
const RECENT_DAYS = 7;

const dayBefore = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/**
 * Closes the accounting days that have ended, for every organization, every
 * LENDING_ACCOUNTING_CLOSE_INTERVAL_MS (0: off), and writes their files when
 * LENDING_ACCOUNTING_FILES_DIR is set (PeriodicJob: the first round within a minute, one round at a
 * time, shutdown waits for it). Every replica runs it: a day's close takes the organization's day lock,
 * so replicas racing for it close it once; writing a file twice writes the same bytes.
 */
@Injectable()
export class AccountingCloseJob extends PeriodicJob<void> {
  constructor(
    private readonly config: LendingConfig,
    private readonly owners: OwnersRepository,
    private readonly days: AccountingDaysService,
  ) {
    super('AccountingCloseJob');
  }

  protected intervalMs(): number {
    return this.config.LENDING_ACCOUNTING_CLOSE_INTERVAL_MS;
  }

  protected work(): Promise<void> {
    return this.closeAll();
  }

  /** One round over every organization: the days that ended before `now` (tests call it). */
  async closeAll(now = new Date()): Promise<void> {
    const yesterday = dayBefore(todayUtc(now));
    for (const id of await this.owners.ids()) {
      if (this.stopping) return;
      try {
        await this.closeOrganization(asOrganizationId(id), yesterday, now);
      } catch (err) {
        // The next organization, and the next round, may fare better (its database unreachable...).
        this.logger.warn(`${id}: ${(err as Error).message}`);
      }
    }
  }

  private async closeOrganization(organizationId: OrganizationId, through: string, now: Date) {
    const closed = await this.days.closeThrough(organizationId, through, now);
    if (closed.length)
      this.logger.log(`${organizationId}: closed ${closed.length} accounting day(s) to ${through}`);
    const root = this.config.LENDING_ACCOUNTING_FILES_DIR;
    if (!root) return;
    const { items } = await this.days.days(organizationId, 0, Math.max(RECENT_DAYS, closed.length));
    for (const day of items) {
      if (accountingFileWritten(root, organizationId, day.businessDate, day.fileName)) continue;
      const { file } = await this.days.file(organizationId, day.businessDate);
      await writeAccountingFile(root, organizationId, day.businessDate, file);
    }
  }
}
