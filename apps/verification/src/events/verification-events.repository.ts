import { Injectable } from '@nestjs/common';
import { txManager, type Tx } from '@platform/persistence';
import { service } from '@platform/registry';
import type { OrganizationId } from '@platform/tenancy';
import { enqueueWebhook } from '@platform/webhooks';

/** Writes an event's webhook deliveries (libs/webhooks) in the caller's transaction. */
@Injectable()
export class VerificationEventsRepository {
  async record(
    tx: Tx,
    organizationId: OrganizationId,
    event: { type: string; id: string; data: unknown },
  ): Promise<void> {
    await enqueueWebhook(txManager(tx), service('verification').schema, {
      tenantId: organizationId,
      eventType: event.type,
      eventId: event.id,
      payload: event.data,
    });
  }
}
