// Unscoped: libs/webhooks' tables through its store, in the caller's tenant transaction; every method takes the organization.
import { Injectable } from '@nestjs/common';
import { txManager, type Tx } from '@platform/persistence';
import { service } from '@platform/registry';
import type { OrganizationId } from '@platform/tenancy';
import {
  redriveWebhooks,
  WebhookDeliveries,
  WebhookSubscriptions,
  type WebhookAttempt,
  type WebhookDelivery,
  type WebhookDeliveryStatus,
  type WebhookSubscriptionStore,
} from '@platform/webhooks';

const SCHEMA = service('lending').schema;

/**
 * Lending's webhook subscriptions and their delivery log: libs/webhooks' tables in the lending schema,
 * read and written in the organization's tenant transaction (row-level security, its own database in
 * database-per-tenant mode), always by organization: another organization's ids are simply not found.
 */
@Injectable()
export class WebhookSubscriptionsRepository {
  constructor(
    private readonly subscriptions: WebhookSubscriptions,
    private readonly deliveries: WebhookDeliveries,
  ) {}

  /** The subscriptions themselves, in the organization's tenant transaction. */
  store(tx: Tx): WebhookSubscriptionStore {
    return this.subscriptions.withRunner(txManager(tx));
  }

  private log(tx: Tx): WebhookDeliveries {
    return this.deliveries.withRunner(txManager(tx));
  }

  /** A page of the log, newest first, each delivery with its attempts. */
  async deliveryLog(
    tx: Tx,
    org: OrganizationId,
    filter: { subscriptionId?: string; status?: WebhookDeliveryStatus; limit: number; offset: number },
  ): Promise<{ items: { delivery: WebhookDelivery; attempts: WebhookAttempt[] }[]; total: number }> {
    const page = await this.log(tx).list(org, filter);
    const attempts = await this.log(tx).attemptsOf(
      org,
      page.items.map((d) => d.id),
    );
    return {
      total: page.total,
      items: page.items.map((delivery) => ({ delivery, attempts: attempts.get(delivery.id) ?? [] })),
    };
  }

  delivery(tx: Tx, org: OrganizationId, deliveryId: string): Promise<WebhookDelivery | undefined> {
    return this.log(tx).get(org, deliveryId);
  }

  /** A dead delivery back to pending, due now, with a fresh attempt budget; false when it is not dead. */
  async redrive(tx: Tx, org: OrganizationId, deliveryId: string): Promise<boolean> {
    return (await redriveWebhooks(txManager(tx), SCHEMA, org, [deliveryId])).length > 0;
  }
}
