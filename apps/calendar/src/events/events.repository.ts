import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository } from '@platform/persistence';
import type { AccountId, ProductId } from '../tenancy/tenant-ids';
import { CalendarEvent } from './calendar-event.entity';
import type { EventFields } from './event.mapper';
import { removeStatement, upsertStatement, writtenEvent, type WriteParts } from './event-write.repository';
import {
  entityStatement,
  searchStatements,
  seriesStatement,
  type EntityEvents,
  type SeriesLookup,
  type SeriesRow,
  type EventSearch,
  type EventViewRow,
} from './event-read.repository';

export interface EventIdentity {
  productId: ProductId;
  entityType: string;
  entityId: string;
}

export type UpsertOutcome =
  | { kind: 'written'; event: CalendarEvent; cursor: number }
  | { kind: 'unchanged' }
  | { kind: 'unknown-account' };

/** Calendar events of one account, by identity triple or by the views' search. */
@Injectable()
export class EventsRepository extends TenantScopedRepository<CalendarEvent, 'accountId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, CalendarEvent, 'accountId');
  }

  /**
   * Creates (`expected` 0) or updates at `expected`, with the outbox event and the journal entry, in one
   * statement that is its own transaction (see event-write.repository.ts; never call it inside one).
   * `unchanged` when the triple exists (create) or is not at `expected` (update); the account is checked
   * by its foreign key rather than a query per write (`unknown-account`).
   */
  async upsertAtVersion(
    accountId: AccountId,
    id: EventIdentity,
    fields: EventFields,
    expected: number,
    parts: WriteParts,
  ): Promise<UpsertOutcome> {
    const { sql, params } = upsertStatement(this.metadata, { accountId, ...id }, fields, expected, parts);
    try {
      const [row] = await this.run<Record<string, unknown>>(accountId, { sql, params });
      return row ? { kind: 'written', ...writtenEvent(row) } : { kind: 'unchanged' };
    } catch (err) {
      const e = err as { driverError?: { code?: string; constraint?: string }; code?: string };
      const code = e.driverError?.code ?? e.code;
      if (code === '23503' && (e.driverError?.constraint ?? '').includes('account'))
        return { kind: 'unknown-account' };
      throw err;
    }
  }

  /** Deletes the triple (at `version` when given), its outbox event and journal entry: one statement. */
  async removeAtVersion(
    accountId: AccountId,
    id: EventIdentity,
    version: number | undefined,
    parts: WriteParts,
  ): Promise<{ version: number; cursor: number } | null> {
    const { sql, params } = removeStatement({ accountId, ...id }, version, parts);
    const [row] = await this.run<{ version: number; cursor: string }>(accountId, { sql, params });
    return row ? { version: row.version, cursor: Number(row.cursor) } : null;
  }

  /** The event now, read after a write that did not apply (a statement of its own: the latest commit). */
  byIdentity(accountId: AccountId, id: EventIdentity): Promise<CalendarEvent | null> {
    return this.findOne(accountId, id);
  }

  /** Events of one product entity, in start order, as plain rows (event-read.repository.ts). */
  async ofEntity(accountId: AccountId, q: EntityEvents): Promise<EventViewRow[]> {
    const st = entityStatement(accountId, q);
    return this.run<EventViewRow>(accountId, st);
  }

  /** The series of one event by its triple, as a plain row (event-read.repository.ts); null when none. */
  async series(accountId: AccountId, q: SeriesLookup): Promise<SeriesRow | null> {
    const st = seriesStatement(accountId, q);
    const [row] = await this.run<SeriesRow>(accountId, st);
    return row ?? null;
  }

  /**
   * The query behind personal and team views: one page and the total of all matches in one statement,
   * as plain rows (event-read.repository.ts); with a range, the recurring masters that may reach into
   * it come back in the same statement. `total` is null when the page is past the end (no row carries
   * it): `count` then answers it, and `plainRows` reads earlier plain rows when occurrences shift a page.
   */
  async search(accountId: AccountId, s: EventSearch): Promise<SearchPage> {
    const statements = searchStatements(accountId, s);
    const all = await this.run<SearchRow>(accountId, statements.page);
    const rows = all.filter((r) => !r.master);
    const masters = all.filter((r) => r.master);
    return {
      rows,
      masters,
      total: rows.length ? Number(rows[0].total) : s.offset === 0 ? 0 : null,
      count: async () => {
        const [counted] = await this.run<{ total: number }>(accountId, statements.count);
        return counted.total;
      },
      plainRows: async (offset, limit) => {
        const st = statements.plainRows(offset, limit);
        return this.run<SearchRow>(accountId, st);
      },
    };
  }

  /** A built statement through the tenant door: its builders bind the account first, as `$1`. */
  private run<R>(accountId: AccountId, st: { sql: string; params: unknown[] }): Promise<R[]> {
    if (st.params[0] !== accountId) throw new Error('a calendar statement binds its account as $1');
    return this.sql<R>(accountId, st.sql, st.params.slice(1));
  }
}

type SearchRow = EventViewRow & { total: string | null; master?: boolean };

export interface SearchPage {
  /** The page of plain rows (with a range: events without recurrence), in the query's order. */
  rows: EventViewRow[];
  /** With a range: recurring masters that start before its end (at most MAX_MASTERS_PER_QUERY + 1). */
  masters: EventViewRow[];
  /** Of the plain rows; null when unknown (a page past the end). */
  total: number | null;
  count(): Promise<number>;
  plainRows(offset: number, limit: number): Promise<EventViewRow[]>;
}
