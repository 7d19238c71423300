import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { AccountId, ProductId } from '../tenancy/tenant-ids';
import { CalendarEvent } from './calendar-event.entity';
import type { EventFields } from './event.mapper';

export interface EventIdentity {
  productId: ProductId;
  entityType: string;
  entityId: string;
}

/** Whose details the caller may read: filters on hidden fields match only those events. */
export type Readability = { kind: 'all' } | { kind: 'none' } | { kind: 'person'; subject: string };

export interface EventSearch {
  /** Events of these people only; undefined for everyone's. */
  people?: string[];
  /** Overlapping [from, to). */
  range?: { from: Date; to: Date };
  resources?: string[];
  excludeCancelled: boolean;
  readable: Readability;
  products?: string[];
  statuses?: string[];
  text?: string;
  sort: { by: 'start' | 'updated'; direction: 'ASC' | 'DESC' };
  offset: number;
  limit: number;
}

export type InsertOutcome = 'inserted' | 'exists' | 'unknown-account';

/** `Readability` as SQL; a person's subject is bound as `:me`. */
function readableSql(r: Readability): string {
  if (r.kind === 'all') return 'true';
  if (r.kind === 'none') return 'false';
  return `(:me = ANY(e.person_ids) OR e.visibility IN ('default', 'public'))`;
}

/** Calendar events of one account, by identity triple or by the views' search. */
@Injectable()
export class EventsRepository extends TenantScopedRepository<CalendarEvent, 'accountId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, CalendarEvent, 'accountId');
  }

  /**
   * Version 1 of a new triple. An existing triple is left alone (`exists`); the account is checked by
   * its foreign key rather than a query per write (`unknown-account`).
   */
  async insertNew(
    tx: Tx,
    accountId: AccountId,
    id: EventIdentity,
    fields: EventFields,
  ): Promise<InsertOutcome> {
    try {
      const inserted = await this.insertIfAbsent(accountId, [{ ...id, ...fields, version: 1 }], tx);
      return inserted ? 'inserted' : 'exists';
    } catch (err) {
      const e = err as { driverError?: { code?: string; constraint?: string }; code?: string };
      const code = e.driverError?.code ?? e.code;
      if (code === '23503' && (e.driverError?.constraint ?? '').includes('account')) return 'unknown-account';
      throw err;
    }
  }

  /** One atomic statement: of concurrent writers sending the same version exactly one succeeds. */
  async updateAtVersion(
    tx: Tx,
    accountId: AccountId,
    id: EventIdentity,
    fields: EventFields,
    expected: number,
  ): Promise<boolean> {
    const updated = await this.update(
      accountId,
      { ...id, version: expected },
      { ...fields, version: () => 'version + 1' },
      tx,
    );
    return updated > 0;
  }

  byIdentity(tx: Tx, accountId: AccountId, id: EventIdentity): Promise<CalendarEvent | null> {
    return this.findOne(accountId, id, tx);
  }

  /** The row locked until the transaction ends, for a removal that checks its version first. */
  lockByIdentity(tx: Tx, accountId: AccountId, id: EventIdentity): Promise<CalendarEvent | null> {
    return this.select(accountId, 'e', tx)
      .andWhere('e.product_id = :productId AND e.entity_type = :entityType AND e.entity_id = :entityId', id)
      .setLock('pessimistic_write')
      .getOne();
  }

  async remove(tx: Tx, accountId: AccountId, eventId: string): Promise<void> {
    await this.delete(accountId, { id: eventId }, tx);
  }

  /** Events of one product entity, in start order. */
  ofEntity(
    accountId: AccountId,
    q: { productId: string; entityId: string; entityType?: string },
  ): Promise<CalendarEvent[]> {
    return this.find(
      accountId,
      {
        productId: q.productId as ProductId,
        entityId: q.entityId,
        ...(q.entityType ? { entityType: q.entityType } : {}),
      },
      { startsAt: 'ASC', entityType: 'ASC' },
    );
  }

  /** The query behind personal and team views: one page and the total. */
  search(accountId: AccountId, s: EventSearch): Promise<[CalendarEvent[], number]> {
    const qb = this.select(accountId, 'e');
    if (s.people && s.people.length === 0) qb.andWhere('false');
    else if (s.people) qb.andWhere('e.person_ids && :people', { people: s.people });
    if (s.range) {
      const { from, to } = s.range;
      // Overlap: an event touches [from, to) when it starts before `to` and ends after `from`; an
      // instant (end = start) counts when it lies inside the range.
      qb.andWhere(
        new Brackets((w) =>
          w
            .where('e.starts_at < :to AND e.ends_at > :from', { from, to })
            .orWhere('e.starts_at = e.ends_at AND e.starts_at >= :from AND e.starts_at < :to', { from, to }),
        ),
      );
    }
    if (s.resources?.length) qb.andWhere('e.resource_ids && :resources', { resources: s.resources });
    if (s.excludeCancelled) qb.andWhere(`e.status <> 'cancelled'`);
    // Filters on fields a busy block hides match only events whose details the caller can read: a
    // person's text search never finds a teammate's private event, so `total` tells nothing about it.
    const readable = readableSql(s.readable);
    if (s.readable.kind === 'person') qb.setParameter('me', s.readable.subject);
    if (s.products?.length)
      qb.andWhere(`${readable} AND e.product_id IN (:...products)`, { products: s.products });
    if (s.statuses?.length)
      qb.andWhere(`${readable} AND e.status IN (:...statuses)`, { statuses: s.statuses });
    if (s.text) {
      const like = `%${s.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      qb.andWhere(
        new Brackets((w) =>
          w
            .where(readable)
            .andWhere(
              new Brackets((t) =>
                t
                  .where('e.title ILIKE :like', { like })
                  .orWhere('e.description ILIKE :like', { like })
                  .orWhere('e.location ILIKE :like', { like }),
              ),
            ),
        ),
      );
    }
    // Sorting by `updated` orders only readable events by it; busy blocks follow, by start. Ties fall
    // back to what every caller sees (start, end) before the id, so equal-looking busy blocks are the
    // only items whose order depends on anything hidden. (TypeORM keys ORDER BY by expression: adding
    // `e.starts_at` again would replace the first.)
    const { by, direction } = s.sort;
    const sortColumn = by === 'updated' ? `CASE WHEN ${readable} THEN e.updated_at END` : 'e.starts_at';
    qb.orderBy(sortColumn, direction, direction === 'ASC' ? 'NULLS LAST' : 'NULLS FIRST');
    if (sortColumn !== 'e.starts_at') qb.addOrderBy('e.starts_at', 'ASC', 'NULLS LAST');
    qb.addOrderBy('e.ends_at', 'ASC', 'NULLS LAST').addOrderBy('e.id', 'ASC');
    return qb.skip(s.offset).take(s.limit).getManyAndCount();
  }
}
