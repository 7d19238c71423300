import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { CalendarEventChanged, CalendarEventRemoved } from '@platform/messaging';
import { OutboxWriter } from '@platform/outbox';
import { inTransaction } from '@platform/persistence';
import type { AccountId, ProductId } from '../tenancy/tenant-ids';
import { CalendarEvent } from './calendar-event.entity';
import { CalendarError, calendarError } from './event.errors';
import { diffAgainst, toEventFields, toEventView, type EventFields, type EventView } from './event.mapper';
import { appendJournal, cursorOf } from './journal.repository';
import type { EventIdentityDto, RemoveEventRequest, UpsertEventRequest } from './dto/upsert-event.request';

export interface UpsertResult {
  event: EventView;
  created: boolean;
  cursor: number;
}

export interface RemoveResult {
  removed: boolean;
  version: number | null;
  cursor: number | null;
}

interface Identity {
  accountId: AccountId;
  productId: ProductId;
  entityType: string;
  entityId: string;
}

const IDENTITY_WHERE =
  'account_id = :accountId AND product_id = :productId AND entity_type = :entityType AND entity_id = :entityId';

@Injectable()
export class EventsService {
  private readonly outbox = new OutboxWriter('calendar');

  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** The triple's product must be the caller's own: one owning product, no detach tokens. */
  private identity(accountId: AccountId, productId: ProductId, req: EventIdentityDto): Identity {
    if (req.product_id !== undefined && req.product_id !== productId) {
      throw calendarError(CalendarError.NOT_OWNER, { productId: req.product_id });
    }
    return { accountId, productId, entityType: req.entity_type, entityId: req.entity_id };
  }

  /**
   * Create or update by identity triple with optimistic concurrency. The version check is one atomic
   * statement (`... WHERE version = $expected`), so of concurrent writers sending the same version
   * exactly one succeeds. Row, journal entry and outbox event commit together.
   */
  async upsert(
    accountId: AccountId,
    productId: ProductId,
    req: UpsertEventRequest,
    requestId: string,
  ): Promise<UpsertResult> {
    const id = this.identity(accountId, productId, req);
    const fields = toEventFields(req);
    const expected = req.version ?? 0;

    const result = await inTransaction(this.ds, async (tx) => {
      const changed =
        expected === 0
          ? await tx
              .createQueryBuilder()
              .insert()
              .into(CalendarEvent)
              .values({ ...id, ...fields, version: 1 })
              .orIgnore()
              .execute()
              .then((r) => r.raw.length > 0, this.unknownAccount(accountId))
          : await tx
              .createQueryBuilder()
              .update(CalendarEvent)
              .set({ ...fields, version: () => 'version + 1' })
              .where(`${IDENTITY_WHERE} AND version = :expected`, { ...id, expected })
              .execute()
              .then((r) => (r.affected ?? 0) > 0);
      const current = await tx.getRepository(CalendarEvent).findOneBy(id);
      if (!changed || !current) throw this.conflict(expected, current, fields);
      await this.publishChanged(tx, current, requestId);
      const journalId = await appendJournal(tx, accountId, {
        kind: 'upsert',
        eventId: current.id,
        productId,
        entityType: id.entityType,
        entityId: id.entityId,
        version: current.version,
      });
      return { event: toEventView(current), created: expected === 0, journalId };
    });
    return {
      event: result.event,
      created: result.created,
      cursor: await cursorOf(this.ds, result.journalId),
    };
  }

  /**
   * Deletes the caller's own event. Already gone is a success that changes nothing; with a `version`,
   * the removal happens only at that version.
   */
  async remove(
    accountId: AccountId,
    productId: ProductId,
    req: RemoveEventRequest,
    requestId: string,
  ): Promise<RemoveResult> {
    const id = this.identity(accountId, productId, req);
    const result = await inTransaction(this.ds, async (tx) => {
      const current = await tx
        .getRepository(CalendarEvent)
        .findOne({ where: id, lock: { mode: 'pessimistic_write' } });
      if (!current) return { removed: false, version: null, journalId: null };
      if (req.version !== undefined && req.version !== current.version)
        throw this.conflict(req.version, current);
      await tx.getRepository(CalendarEvent).delete({ id: current.id });
      await this.outbox.append(
        tx,
        CalendarEventRemoved,
        {
          eventId: current.id,
          accountId,
          productId,
          entityType: id.entityType,
          entityId: id.entityId,
          version: current.version,
          removedAt: new Date().toISOString(),
        },
        { tenantId: accountId, requestId },
      );
      const journalId = await appendJournal(tx, accountId, {
        kind: 'remove',
        eventId: current.id,
        productId,
        entityType: id.entityType,
        entityId: id.entityId,
        version: current.version,
      });
      return { removed: true, version: current.version, journalId };
    });
    return {
      removed: result.removed,
      version: result.version,
      cursor: result.journalId ? await cursorOf(this.ds, result.journalId) : null,
    };
  }

  /** The account is checked by its foreign key, not by a query per write. */
  private unknownAccount(accountId: AccountId) {
    return (err: unknown): never => {
      const e = err as { driverError?: { code?: string; constraint?: string }; code?: string };
      const code = e.driverError?.code ?? e.code;
      if (code === '23503' && (e.driverError?.constraint ?? '').includes('account')) {
        throw calendarError(CalendarError.ACCOUNT_NOT_FOUND, { accountId });
      }
      throw err;
    };
  }

  /** 409 with the current event and, when the caller sent fields, what differs from them. */
  private conflict(sent: number, current: CalendarEvent | null, fields?: EventFields) {
    return calendarError(
      CalendarError.VERSION_CONFLICT,
      { sent, current: current?.version ?? 0 },
      {
        current: current ? toEventView(current) : null,
        diff: current && fields ? diffAgainst(fields, current) : [],
      },
    );
  }

  private async publishChanged(tx: EntityManager, e: CalendarEvent, requestId: string): Promise<void> {
    await this.outbox.append(
      tx,
      CalendarEventChanged,
      {
        eventId: e.id,
        accountId: e.accountId,
        productId: e.productId,
        entityType: e.entityType,
        entityId: e.entityId,
        version: e.version,
        title: e.title,
        startsAt: e.startsAt?.toISOString() ?? null,
        endsAt: e.endsAt?.toISOString() ?? null,
        status: e.status,
        changedAt: e.updatedAt.toISOString(),
      },
      { tenantId: e.accountId, requestId },
    );
  }
}
