import { Injectable } from '@nestjs/common';
import type { OrganizationId } from '@platform/tenancy';
import {
  WebhookSubscriptionsApi,
  webhookDeliveryDetailView,
  type WebhookSubscriptionStore,
} from '@platform/webhooks';
import { LendingConfig } from '../config/lending.config';
import { TenantData } from '../tenancy/tenant-data';
import type { GetWebhookDeliveriesRequest } from './dto/webhook.request';
import type { WebhookEventTypeResponse } from './dto/webhook.response';
import { WEBHOOK_EVENT_TYPES } from './webhook-events';
import { WebhookSubscriptionsRepository } from './webhook-subscriptions.unscoped.repository';
import { webhookErrors } from './webhooks.errors';

/**
 * Webhook subscriptions of an organization and their delivery log (docs/lending/webhooks.md): create,
 * list, get, change, delete and rotate as libs/webhooks' WebhookSubscriptionsApi does them, each in the
 * organization's tenant transaction; here the event types, the organization's delivery log and redrive.
 */
@Injectable()
export class WebhooksService extends WebhookSubscriptionsApi<OrganizationId> {
  constructor(
    private readonly config: LendingConfig,
    private readonly data: TenantData,
    private readonly subscriptions: WebhookSubscriptionsRepository,
  ) {
    super(webhookErrors);
  }

  protected withSubscriptions<T>(
    org: OrganizationId,
    fn: (subscriptions: WebhookSubscriptionStore) => Promise<T>,
  ): Promise<T> {
    return this.data.run(org, (tx) => fn(this.subscriptions.store(tx)));
  }

  protected configured(): boolean {
    return this.config.webhooksSecretKey() !== null;
  }

  protected maxPerOrganization(): number {
    return this.config.WEBHOOK_SUBSCRIPTIONS_MAX_PER_ORGANIZATION;
  }

  eventTypes(): WebhookEventTypeResponse[] {
    return WEBHOOK_EVENT_TYPES.map((event) => ({ event, group: event.split('.')[1] }));
  }

  async deliveries(org: OrganizationId, q: GetWebhookDeliveriesRequest) {
    this.assertConfigured();
    const { items, total } = await this.data.run(org, (tx) =>
      this.subscriptions.deliveryLog(tx, org, {
        subscriptionId: q.SubscriptionId,
        status: q.Status,
        offset: q.Offset ?? 0,
        limit: q.Count ?? 20,
      }),
    );
    return {
      items: items.map((x) => webhookDeliveryDetailView(x.delivery, x.attempts, 'subscriptionId')),
      total,
    };
  }

  /** A dead delivery back to pending, due now, with a fresh attempt budget (same id, same body). */
  async redrive(org: OrganizationId, deliveryId: string) {
    this.assertConfigured();
    return this.data.run(org, async (tx) => {
      if (await this.subscriptions.redrive(tx, org, deliveryId)) return { deliveryId, status: 'pending' };
      throw this.notRedriven(await this.subscriptions.delivery(tx, org, deliveryId), deliveryId);
    });
  }
}
