import { Injectable } from '@nestjs/common';
import { CalendarEventChanged, CalendarEventRemoved } from '@platform/messaging';
import { Transactions, type Tx } from '@platform/persistence';
import type { AccountId, ProductId } from '../tenancy/tenant-ids';
import type { CalendarEvent } from './calendar-event.entity';
import { CalendarError, calendarError } from './event.errors';
import { diffAgainst, toEventFields, toEventView, type EventFields, type EventView } from './event.mapper';
import { EventOutboxRepository } from './event-outbox.repository';
import { EventsRepository, type EventIdentity } from './events.repository';
import { JournalRepository } from './journal.repository';
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

@Injectable()
export class EventsService {
  constructor(
    private readonly transactions: Transactions,
    private readonly events: EventsRepository,
    private readonly journal: JournalRepository,
    private readonly outbox: EventOutboxRepository,
  ) {}

  /** The triple's product must be the caller's own: one owning product, no detach tokens. */
  private identity(productId: ProductId, req: EventIdentityDto): EventIdentity {
    if (req.product_id !== undefined && req.product_id !== productId) {
      throw calendarError(CalendarError.NOT_OWNER, { productId: req.product_id });
    }
    return { productId, entityType: req.entity_type, entityId: req.entity_id };
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
    const id = this.identity(productId, req);
    const fields = toEventFields(req);
    const expected = req.version ?? 0;

    const result = await this.transactions.run(async (tx) => {
      const changed =
        expected === 0
          ? this.inserted(await this.events.insertNew(tx, accountId, id, fields), accountId)
          : await this.events.updateAtVersion(tx, accountId, id, fields, expected);
      const current = await this.events.byIdentity(tx, accountId, id);
      if (!changed || !current) throw this.conflict(expected, current, fields);
      await this.publishChanged(tx, current, requestId);
      const journalId = await this.journal.append(tx, accountId, {
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
      cursor: await this.journal.cursorOf(accountId, result.journalId),
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
    const id = this.identity(productId, req);
    const result = await this.transactions.run(async (tx) => {
      const current = await this.events.lockByIdentity(tx, accountId, id);
      if (!current) return { removed: false, version: null, journalId: null };
      if (req.version !== undefined && req.version !== current.version)
        throw this.conflict(req.version, current);
      await this.events.remove(tx, accountId, current.id);
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
      const journalId = await this.journal.append(tx, accountId, {
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
      cursor: result.journalId ? await this.journal.cursorOf(accountId, result.journalId) : null,
    };
  }

  /** The account is checked by its foreign key, not by a query per write. */
  private inserted(outcome: 'inserted' | 'exists' | 'unknown-account', accountId: AccountId): boolean {
    if (outcome === 'unknown-account') throw calendarError(CalendarError.ACCOUNT_NOT_FOUND, { accountId });
    return outcome === 'inserted';
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

  private async publishChanged(tx: Tx, e: CalendarEvent, requestId: string): Promise<void> {
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
