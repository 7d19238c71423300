import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { BindParam } from '@platform/outbox';
import { TenantScopedTables, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';

/** One accounting event as lending recorded it: what the daily file is made of. */
export interface RecordedAccountingEvent {
  eventId: string;
  eventType: string;
  businessDate: string;
  payload: Record<string, unknown>;
}

/** A closed accounting day and its file's name and checksum. */
export interface ClosedDayRow {
  businessDate: string;
  closedAt: Date;
  dayClosedEventId: string;
  eventCount: number;
  recordCount: number;
  fileName: string;
  fileSha256: string;
  fileBytes: number;
}

const dayLock = `hashtextextended('lending-accounting-day:' || $1, 0)`;

/**
 * Lending's record of its accounting events and of the closed accounting days (docs/lending/events.md,
 * "Daily accounting file"), in tenant transactions.
 *
 * A day closes at most once and gets nothing after: every transaction that writes accounting events
 * holds the organization's day lock shared (once per transaction, `openDay`), the close holds it
 * exclusively. So a close waits for writers in flight and sees their events, and a writer after the
 * close reads the new last closed day and books on the open day after it.
 */
@Injectable()
export class AccountingBooksRepository extends TenantScopedTables<OrganizationId> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, { schema: 'lending', column: 'organization_id' });
  }

  private readonly lastClosedIn = new WeakMap<Tx, Promise<string | null>>();

  /**
   * The last closed day as this transaction sees it, under the shared day lock (taken on the first
   * call in the transaction, by a function whose read takes its snapshot after the lock, so it sees a
   * close that committed while we waited).
   */
  lastClosedForWriting(tx: Tx, organizationId: OrganizationId): Promise<string | null> {
    let found = this.lastClosedIn.get(tx);
    if (!found) {
      // The lock and the read after it in one round trip (lending.accounting_day_open).
      found = this.sqlPrepared<{ last: string | null }>(
        organizationId,
        `SELECT lending.accounting_day_open($1) AS last`,
        [],
        tx,
      ).then((rows) => rows[0]?.last ?? null);
      this.lastClosedIn.set(tx, found);
    }
    return found;
  }

  /** Takes the organization's day lock exclusively: writers of accounting events wait until commit. */
  async lockDays(tx: Tx, organizationId: OrganizationId): Promise<void> {
    await this.sql(organizationId, `SELECT pg_advisory_xact_lock(${dayLock})`, [], tx);
    // This transaction's own writes (the day-closed events) need no shared lock on top.
    this.lastClosedIn.set(tx, this.lastClosed(tx, organizationId));
  }

  async lastClosed(tx: Tx, organizationId: OrganizationId): Promise<string | null> {
    const rows: { last: string | null }[] = await this.sql(
      organizationId,
      `SELECT max(business_date)::text AS last FROM lending.accounting_days WHERE organization_id = $1`,
      [],
      tx,
    );
    return rows[0]?.last ?? null;
  }

  /**
   * The organization's first accounting day: the day it was created (UTC), or the first day anything
   * was booked on if that is earlier (a book migrated from elsewhere).
   */
  async firstDay(tx: Tx, organizationId: OrganizationId): Promise<string> {
    const rows: { first: string }[] = await this.sql(
      organizationId,
      `SELECT least(
                (SELECT (created_at AT TIME ZONE 'UTC')::date FROM lending.organizations WHERE id = $1),
                (SELECT min(business_date) FROM lending.accounting_events WHERE organization_id = $1)
              )::text AS first`,
      [],
      tx,
    );
    return rows[0].first;
  }

  /** The INSERT of `record` for several events, as a statement for LoanEventsRepository.appendAll. */
  recordSql(organizationId: OrganizationId, rows: readonly RecordedAccountingEvent[]) {
    return (bind: BindParam): string =>
      `INSERT INTO lending.accounting_events (organization_id, event_id, event_type, business_date, payload)
       VALUES ${rows
         .map(
           (e) =>
             `(${bind(organizationId)}, ${bind(e.eventId)}::uuid, ${bind(e.eventType)}, ${bind(
               e.businessDate,
             )}::date, ${bind(JSON.stringify(e.payload))}::jsonb)`,
         )
         .join(', ')}`;
  }

  async record(tx: Tx, organizationId: OrganizationId, e: RecordedAccountingEvent): Promise<void> {
    await this.sql(
      organizationId,
      `INSERT INTO lending.accounting_events (organization_id, event_id, event_type, business_date, payload)
       VALUES ($1, $2, $3, $4, $5::jsonb)`,
      [e.eventId, e.eventType, e.businessDate, JSON.stringify(e.payload)],
      tx,
    );
  }

  /** The day's events in the order they were written (the outbox order, each agreement's order). */
  async eventsOf(tx: Tx, organizationId: OrganizationId, day: string): Promise<RecordedAccountingEvent[]> {
    const rows: {
      event_id: string;
      event_type: string;
      business_date: string;
      payload: Record<string, unknown>;
    }[] = await this.sql(
      organizationId,
      `SELECT event_id, event_type, business_date::text AS business_date, payload
           FROM lending.accounting_events WHERE organization_id = $1 AND business_date = $2 ORDER BY seq`,
      [day],
      tx,
    );
    return rows.map((r) => ({
      eventId: r.event_id,
      eventType: r.event_type,
      businessDate: r.business_date,
      payload: r.payload,
    }));
  }

  async insertDay(tx: Tx, organizationId: OrganizationId, d: ClosedDayRow): Promise<void> {
    await this.sql(
      organizationId,
      `INSERT INTO lending.accounting_days (organization_id, business_date, closed_at, day_closed_event_id,
         event_count, record_count, file_name, file_sha256, file_bytes)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        d.businessDate,
        d.closedAt,
        d.dayClosedEventId,
        d.eventCount,
        d.recordCount,
        d.fileName,
        d.fileSha256,
        d.fileBytes,
      ],
      tx,
    );
  }

  async day(tx: Tx, organizationId: OrganizationId, day: string): Promise<ClosedDayRow | undefined> {
    return (await this.days(tx, organizationId, { day, offset: 0, count: 1 })).items[0];
  }

  /** Closed days, newest first. */
  async days(
    tx: Tx,
    organizationId: OrganizationId,
    q: { day?: string; offset: number; count: number },
  ): Promise<{ items: ClosedDayRow[]; total: number }> {
    const rows: (Record<string, unknown> & { total: string })[] = await this.sql(
      organizationId,
      `SELECT business_date::text AS business_date, closed_at, day_closed_event_id, event_count, record_count,
              file_name, file_sha256, file_bytes, count(*) OVER () AS total
         FROM lending.accounting_days
        WHERE organization_id = $1 AND ($2::date IS NULL OR business_date = $2)
        ORDER BY business_date DESC LIMIT $3 OFFSET $4`,
      [q.day ?? null, q.count, q.offset],
      tx,
    );
    return {
      total: rows.length ? Number(rows[0].total) : 0,
      items: rows.map((r) => ({
        businessDate: r.business_date as string,
        closedAt: r.closed_at as Date,
        dayClosedEventId: r.day_closed_event_id as string,
        eventCount: r.event_count as number,
        recordCount: r.record_count as number,
        fileName: r.file_name as string,
        fileSha256: r.file_sha256 as string,
        fileBytes: r.file_bytes as number,
      })),
    };
  }
}
