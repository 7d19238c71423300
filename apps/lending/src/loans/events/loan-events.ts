import { Injectable } from '@nestjs/common';
import type { LendingEventType } from '@platform/messaging';
import type { BindParam } from '@platform/outbox';
import type { Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { AccountingBooksRepository } from '../../accounting/accounting-books.repository';
import { WebhookQueueRepository } from '../../webhooks/webhook-queue.unscoped.repository';
import { todayUtc } from '../loan-dates';
import { eventsOf, type EventBody, type LoanEvent } from './event-payloads';
import type { LoanFact } from './loan-facts';
import { LoanEventsRepository, newEventId } from './loan-events.unscoped.repository';

const DAY_CLOSED = 'lending.accounting.day-closed';

const dayAfter = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/**
 * The one way lending announces a contract change (docs/lending/loans.md, "Events"): called in the
 * transaction that makes the change, so the change and everything below commit together or not at all,
 * and an idempotent repeat (which runs nothing) writes none. `record` turns an operation's fact into its
 * bureau and accounting events (event-payloads.ts); `emit` writes one, to every channel at once:
 *
 * - the outbox row (outbox-relay publishes it to Kafka), validated against the type's contract;
 * - for an accounting event, lending's own record of it, which the daily accounting file is made of
 *   (docs/lending/events.md), booked on the open accounting day (a closed day gets nothing more);
 * - the webhook deliveries of the organization's subscriptions to the type, and of the notifications
 *   it gives rise to (docs/lending/webhooks.md): whoever emits an overdue or a payment through here,
 *   the accruals job included, gets its webhooks with no code of its own.
 */
@Injectable()
export class LoanEvents {
  constructor(
    private readonly repository: LoanEventsRepository,
    private readonly books: AccountingBooksRepository,
    private readonly webhooks: WebhookQueueRepository,
  ) {}

  async record(tx: Tx, organizationId: OrganizationId, fact: LoanFact): Promise<void> {
    await this.announce(tx, organizationId, fact);
  }

  /**
   * Writes an operation's events, those of a fact (event-payloads.ts) or the ones given, in one round
   * trip: their outbox rows and accounting records in one statement, then their webhook deliveries.
   */
  async announce(
    tx: Tx,
    organizationId: OrganizationId,
    what: LoanFact | LoanEvent[],
    today = todayUtc(),
    also: readonly ((bind: BindParam) => string)[] = [],
  ): Promise<boolean> {
    const events = Array.isArray(what) ? what : eventsOf(what, today);
    const prepared: Prepared[] = [];
    for (const e of events) prepared.push(await this.prepare(tx, organizationId, e.type, e.body as never));
    return this.write(tx, organizationId, prepared, also);
  }

  /** Writes one event; the fields every lending event shares are filled in here. Returns its id. */
  async emit<T extends LendingEventType>(
    tx: Tx,
    organizationId: OrganizationId,
    type: T,
    body: EventBody<T>,
  ): Promise<string> {
    const p = await this.prepare(tx, organizationId, type, body);
    await this.write(tx, organizationId, [p]);
    return p.eventId;
  }

  private async prepare<T extends LendingEventType>(
    tx: Tx,
    organizationId: OrganizationId,
    type: T,
    body: EventBody<T>,
  ): Promise<Prepared> {
    const payload: Record<string, unknown> = {
      eventType: type,
      schemaVersion: 1,
      organizationId,
      ...body,
      // The day close says when in `closedAt`; every other event in `occurredAt`.
      ...(type === DAY_CLOSED ? {} : { occurredAt: new Date().toISOString() }),
    };
    const accounting = type.startsWith('lending.accounting.');
    if (accounting && type !== DAY_CLOSED) {
      const last = await this.books.lastClosedForWriting(tx, organizationId);
      const proposed = payload.businessDate as string;
      if (last !== null && proposed <= last) payload.businessDate = dayAfter(last);
    }
    return { type, payload, eventId: newEventId(), accounting };
  }

  /** Returns whether the statement ran (with `also` in it): not when there is no event to write. */
  private async write(
    tx: Tx,
    organizationId: OrganizationId,
    prepared: Prepared[],
    also: readonly ((bind: BindParam) => string)[] = [],
  ): Promise<boolean> {
    const booked = prepared
      .filter((p) => p.accounting)
      .map((p) => ({
        eventId: p.eventId,
        eventType: p.type,
        businessDate: p.payload.businessDate as string,
        payload: p.payload,
      }));
    // The subscriptions' wanted types come back with the same statement (once per transaction).
    const wanted = this.webhooks.wantedTypesSql(tx, organizationId);
    const read = await this.repository.appendAll(
      tx,
      organizationId,
      prepared,
      [...(booked.length ? [this.books.recordSql(organizationId, booked)] : []), ...also],
      wanted ?? undefined,
    );
    if (wanted && prepared.length) this.webhooks.know(tx, read as string[]);
    for (const p of prepared) await this.webhooks.enqueue(tx, organizationId, p.type, p.eventId, p.payload);
    return prepared.length > 0;
  }
}

/** An event ready to be written: its full payload and its id. */
interface Prepared {
  type: LendingEventType;
  payload: Record<string, unknown>;
  eventId: string;
  /** Whether it is an accounting event (also recorded for the daily file). */
  accounting: boolean;
}
