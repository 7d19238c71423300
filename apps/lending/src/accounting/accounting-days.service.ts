import { Injectable } from '@nestjs/common';
import type { Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { LoanEvents } from '../loans/events/loan-events';
import { todayUtc } from '../loans/loan-dates';
import { TenantData } from '../tenancy/tenant-data';
import { AccountingBooksRepository, type ClosedDayRow } from './accounting-books.repository';
import { buildAccountingFile, dayTotals, type AccountingFile } from './accounting-file';
import { AccountingError, accountingError } from './accounting.errors';
import type { AccountingDayResponse } from './dto/accounting.response';

/** Days one close transaction closes at most. */
const DAYS_PER_TRANSACTION = 31;

const dayAfter = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

export const accountingDayView = (d: ClosedDayRow): AccountingDayResponse => ({
  businessDate: d.businessDate,
  closedAt: d.closedAt.toISOString(),
  dayClosedEventId: d.dayClosedEventId,
  eventCount: d.eventCount,
  recordCount: d.recordCount,
  fileName: d.fileName,
  fileSha256: d.fileSha256,
  fileBytes: d.fileBytes,
});

/**
 * Closes an organization's accounting days and serves their files (docs/lending/events.md, "Daily
 * accounting file"). Days close in order, each once: the close writes the day's
 * `lending.accounting.day-closed` event (control totals) through LoanEvents, so it reaches Kafka,
 * webhooks and the file like every accounting event, and stores the file's checksum. Later events of
 * that day's date go to the open day (LoanEvents).
 */
@Injectable()
export class AccountingDaysService {
  constructor(
    private readonly data: TenantData,
    private readonly books: AccountingBooksRepository,
    private readonly events: LoanEvents,
  ) {}

  /**
   * Closes every open day up to `through` (inclusive), oldest first, from the organization's first
   * day (the day it was created, UTC); the days closed now. At most DAYS_PER_TRANSACTION per
   * transaction, so catching up on a long gap holds the day lock in short stretches.
   */
  async closeThrough(
    organizationId: OrganizationId,
    through: string,
    now = new Date(),
  ): Promise<ClosedDayRow[]> {
    if (through >= todayUtc(now)) throw accountingError(AccountingError.DAY_NOT_OVER, { date: through });
    const closed: ClosedDayRow[] = [];
    for (;;) {
      const batch = await this.data.run(organizationId, async (tx) => {
        await this.books.lockDays(tx, organizationId);
        const last = await this.books.lastClosed(tx, organizationId);
        const first = last !== null ? dayAfter(last) : await this.books.firstDay(tx, organizationId);
        const done: ClosedDayRow[] = [];
        for (let day = first; day <= through && done.length < DAYS_PER_TRANSACTION; day = dayAfter(day))
          done.push(await this.closeOne(tx, organizationId, day, now));
        return done;
      });
      closed.push(...batch);
      if (batch.length < DAYS_PER_TRANSACTION) return closed;
    }
  }

  private async closeOne(
    tx: Tx,
    organizationId: OrganizationId,
    day: string,
    now: Date,
  ): Promise<ClosedDayRow> {
    const events = await this.books.eventsOf(tx, organizationId, day);
    const dayClosedEventId = await this.events.emit(tx, organizationId, 'lending.accounting.day-closed', {
      businessDate: day,
      closedAt: now.toISOString(),
      eventCount: events.length,
      totals: dayTotals(events),
    });
    // Read back as stored, the day close included: the file's payloads are the stored bytes.
    const file = buildAccountingFile(organizationId, day, await this.books.eventsOf(tx, organizationId, day));
    const row: ClosedDayRow = {
      businessDate: day,
      closedAt: now,
      dayClosedEventId,
      eventCount: events.length,
      recordCount: file.records,
      fileName: file.name,
      fileSha256: file.sha256,
      fileBytes: file.content.length,
    };
    await this.books.insertDay(tx, organizationId, row);
    return row;
  }

  /** A closed day's file, rebuilt from the recorded events: the same bytes as when it closed. */
  async file(
    organizationId: OrganizationId,
    date: string,
  ): Promise<{ day: ClosedDayRow; file: AccountingFile }> {
    return this.data.run(organizationId, async (tx) => {
      const day = await this.books.day(tx, organizationId, date);
      if (!day) {
        if (date >= todayUtc()) throw accountingError(AccountingError.DAY_NOT_OVER, { date });
        // Days close in order from the first: a day missing before the last closed one, or before the
        // organization's first day, has no file and never will.
        const last = await this.books.lastClosed(tx, organizationId);
        if ((last !== null && date <= last) || date < (await this.books.firstDay(tx, organizationId)))
          throw accountingError(AccountingError.FILE_NOT_FOUND, { date });
        throw accountingError(AccountingError.DAY_NOT_CLOSED, { date });
      }
      const file = buildAccountingFile(
        organizationId,
        date,
        await this.books.eventsOf(tx, organizationId, date),
      );
      // Append-only tables make this impossible short of a manual edit: refuse to serve other bytes.
      if (file.sha256 !== day.fileSha256)
        throw new Error(`accounting file of ${organizationId} ${date} no longer matches its checksum`);
      return { day, file };
    });
  }

  days(organizationId: OrganizationId, offset: number, count: number) {
    return this.data.run(organizationId, (tx) => this.books.days(tx, organizationId, { offset, count }));
  }
}
