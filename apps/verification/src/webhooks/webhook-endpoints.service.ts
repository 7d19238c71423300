import { Injectable } from '@nestjs/common';
import { Transactions } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import {
  WebhookSubscriptionsApi,
  webhookDeliveryDetailView,
  webhookDeliveryView,
  type WebhookSubscriptionStore,
} from '@platform/webhooks';
import { VerificationConfig } from '../config/verification.config';
import type { ListWebhookDeliveriesRequest } from './dto/webhook-endpoint.request';
import { WebhookEndpointsRepository } from './webhook-endpoints.unscoped.repository';
import { webhookErrors } from './webhooks.errors';

/**
 * Webhook endpoints of an organization (docs/verification/webhooks.md): create, list, get, change,
 * delete and rotate as libs/webhooks' WebhookSubscriptionsApi does them, each in one transaction (the
 * bound on endpoints per organization holds under concurrency only so); here each
 * endpoint's delivery log, redrive and test deliveries.
 */
@Injectable()
export class WebhookEndpointsService extends WebhookSubscriptionsApi<OrganizationId> {
  constructor(
    private readonly config: VerificationConfig,
    private readonly transactions: Transactions,
    private readonly endpoints: WebhookEndpointsRepository,
  ) {
    super(webhookErrors);
  }

  protected withSubscriptions<T>(
    _org: OrganizationId,
    fn: (subscriptions: WebhookSubscriptionStore) => Promise<T>,
  ): Promise<T> {
    return this.transactions.run((tx) => fn(this.endpoints.store(tx)));
  }

  protected configured(): boolean {
    return this.config.webhooksSecretKey() !== null;
  }

  protected maxPerOrganization(): number {
    return this.config.WEBHOOK_ENDPOINTS_MAX_PER_ORGANIZATION;
  }

  async deliveries(org: OrganizationId, id: string, q: ListWebhookDeliveriesRequest) {
    await this.get(org, id);
    const { items, total } = await this.endpoints.listDeliveries(org, id, {
      status: q.status,
      offset: q.offset ?? 0,
      limit: q.limit ?? 20,
    });
    return { items: items.map((d) => webhookDeliveryView(d, 'endpointId')), total };
  }

  async delivery(org: OrganizationId, id: string, deliveryId: string) {
    await this.get(org, id);
    const found = await this.endpoints.delivery(org, id, deliveryId);
    if (!found) throw this.deliveryNotFound(deliveryId);
    return webhookDeliveryDetailView(found.delivery, found.attempts, 'endpointId');
  }

  /** One dead delivery back to pending, due now, with a fresh attempt budget. */
  async redrive(org: OrganizationId, id: string, deliveryId: string) {
    await this.get(org, id);
    const redriven = await this.endpoints.redrive(org, id, deliveryId);
    if (!redriven.length)
      throw this.notRedriven((await this.endpoints.delivery(org, id, deliveryId))?.delivery, deliveryId);
    return { redriven };
  }

  /** Every dead delivery of the endpoint (possibly none). */
  async redriveDead(org: OrganizationId, id: string) {
    await this.get(org, id);
    return { redriven: await this.endpoints.redrive(org, id) };
  }

  /** Sends a `ping` delivery to this endpoint only (paused or not), signed like any other. */
  async test(org: OrganizationId, id: string) {
    this.assertConfigured();
    const deliveryId = await this.transactions.run((tx) =>
      this.endpoints.enqueuePing(tx, org, id, new Date()),
    );
    if (!deliveryId) throw this.errors.notFound(id);
    return { deliveryId };
  }
}
