import { Injectable } from '@nestjs/common';
import { lendingEventContract, type LendingEventType } from '@platform/messaging';
import { OutboxWriter } from '@platform/outbox';
import { txManager, type Tx } from '@platform/persistence';
import { service } from '@platform/registry';
import type { OrganizationId } from '@platform/tenancy';
import { currentRequestId } from '../../common/request-context';

const outbox = new OutboxWriter(service('lending').schema);

/**
 * Lending's outbox (outbox-relay publishes it to Kafka): one row per event, in the caller's
 * transaction. The payload is validated against its type's contract here, so an event that does not
 * fit its schema fails the change instead of reaching the bureau or the books. The row names the HTTP
 * request that made the change (the message's `request-id`, from the request context); an event a
 * periodic job writes (the daily accruals, the accounting day close) has none.
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
      requestId: currentRequestId(),
    });
  }
}
