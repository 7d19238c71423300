import { Injectable } from '@nestjs/common';
import type { LendingEventType } from '@platform/messaging';
import type { Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { todayUtc } from '../loan-dates';
import { eventsOf, type EventBody } from './event-payloads';
import type { LoanFact } from './loan-facts';
import { LoanEventsRepository } from './loan-events.repository';

/**
 * The one way the loans area announces a contract change (docs/lending/loans.md, "Events"): called in
 * the transaction that makes the change, so the change and its outbox rows commit together or not at
 * all, and an idempotent repeat (which runs nothing) writes none. `record` turns an operation's fact
 * into its bureau and accounting events (event-payloads.ts); `emit` writes one.
 */
@Injectable()
export class LoanEvents {
  constructor(private readonly repository: LoanEventsRepository) {}

  async record(tx: Tx, organizationId: OrganizationId, fact: LoanFact): Promise<void> {
    for (const e of eventsOf(fact, todayUtc())) await this.emit(tx, organizationId, e.type, e.body);
  }

  /** Writes one event; the fields every lending event shares are filled in here. Returns its id. */
  emit<T extends LendingEventType>(
    tx: Tx,
    organizationId: OrganizationId,
    type: T,
    body: EventBody<T>,
  ): Promise<string> {
    return this.repository.append(tx, organizationId, type, {
      eventType: type,
      schemaVersion: 1,
      organizationId,
      ...body,
      occurredAt: new Date().toISOString(),
    });
  }
}
