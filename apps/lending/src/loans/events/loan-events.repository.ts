import { Injectable } from '@nestjs/common';
import { lendingEventContract, type LendingEventType } from '@platform/messaging';
import { OutboxWriter } from '@platform/outbox';
import { txManager, type Tx } from '@platform/persistence';
import { service } from '@platform/registry';
import type { OrganizationId } from '@platform/tenancy';

const outbox = new OutboxWriter(service('lending').schema);

/**
 * Lending's outbox (outbox-relay publishes it to Kafka): one row per event, in the caller's
 * transaction. The payload is validated against its type's contract here, so an event that does not
 * fit its schema fails the change instead of reaching the bureau or the books.
 */
@Injectable()
export class LoanEventsRepository {
  async append(
    tx: Tx,
    organizationId: OrganizationId,
    type: LendingEventType,
    payload: object,
  ): Promise<string> {
    return outbox.append(txManager(tx), lendingEventContract(type), payload as never, {
      tenantId: organizationId,
    });
  }
}
