import { Injectable } from '@nestjs/common';
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
   * Create or update by identity triple with optimistic concurrency. Row, journal entry and outbox
   * event are written by one statement, which is its own transaction (one round trip): the version
   * check is its UPDATE's condition, so of concurrent writers sending the same version exactly one
   * succeeds, and it returns the journal cursor the commit assigns. No `Transactions.run` here: BEGIN
   * and COMMIT would add two round trips and hold the journal counter's lock across the COMMIT one
   * (journal.repository.ts). Only a write that did not apply costs a second statement, the read of
   * the event for the 409 (it must see the latest commit, which the write's snapshot may not).
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
    const outcome = await this.events.upsertAtVersion(accountId, id, fields, expected, {
      // Validated against the contract here, before the statement; id and time come from the row.
      outbox: this.outbox.changed(
        {
          accountId,
          productId,
          entityType: id.entityType,
          entityId: id.entityId,
          version: expected + 1,
          title: fields.title,
          startsAt: fields.startsAt?.toISOString() ?? null,
          endsAt: fields.endsAt?.toISOString() ?? null,
          status: fields.status,
        },
        { tenantId: accountId, requestId },
      ),
      journal: this.journal.entry(expected === 0 ? 'created' : 'updated'),
    });
    if (outcome.kind === 'unknown-account')
      throw calendarError(CalendarError.ACCOUNT_NOT_FOUND, { accountId });
    if (outcome.kind === 'unchanged')
      throw this.conflict(expected, await this.events.byIdentity(accountId, id), fields);
    return { event: toEventView(outcome.event), created: expected === 0, cursor: outcome.cursor };
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
    const removed = await this.events.removeAtVersion(accountId, id, req.version, {
      outbox: this.outbox.removed(
        {
          accountId,
          productId,
          entityType: id.entityType,
          entityId: id.entityId,
          removedAt: new Date().toISOString(),
        },
        { tenantId: accountId, requestId },
      ),
      journal: this.journal.entry('removed'),
    });
    if (removed) return { removed: true, ...removed };
    if (req.version !== undefined) {
      // Not at that version, or gone: which one is the answer. (A row at that very version can only
      // be one re-created after the statement began; as before, it is not removed.)
      const current = await this.events.byIdentity(accountId, id);
      if (current && current.version !== req.version) throw this.conflict(req.version, current);
    }
    return { removed: false, version: null, cursor: null };
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
}
