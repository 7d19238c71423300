import { Injectable } from '@nestjs/common';
import type { OrganizationId } from '@platform/tenancy';
import {
  WebhookTargetError,
  type WebhookAttempt,
  type WebhookDelivery,
  type WebhookSubscription,
} from '@platform/webhooks';
import { LendingConfig } from '../config/lending.config';
import { TenantData } from '../tenancy/tenant-data';
import type {
  CreateWebhookSubscriptionRequest,
  GetWebhookDeliveriesRequest,
  RotateWebhookSecretRequest,
  UpdateWebhookSubscriptionRequest,
} from './dto/webhook.request';
import type {
  WebhookDeliveryResponse,
  WebhookEventTypeResponse,
  WebhookSubscriptionResponse,
} from './dto/webhook.response';
import { WEBHOOK_EVENT_TYPES } from './webhook-events';
import { WebhookSubscriptionsRepository } from './webhook-subscriptions.repository';
import { refusalReason, WebhooksError, webhooksError } from './webhooks.errors';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

const subscriptionView = (s: WebhookSubscription): WebhookSubscriptionResponse => ({
  id: s.id,
  url: s.url,
  events: s.eventTypes,
  description: s.description,
  enabled: s.enabled,
  createdAt: s.createdAt.toISOString(),
  updatedAt: s.updatedAt.toISOString(),
  secretRotatedAt: iso(s.secretRotatedAt),
  previousSecretValidUntil: iso(s.previousSecretValidUntil),
});

const attemptView = (a: WebhookAttempt) => ({
  attemptNo: a.attemptNo,
  attemptedAt: a.attemptedAt.toISOString(),
  responseStatus: a.httpStatus,
  error: a.error,
  latencyMs: a.latencyMs,
  responseBody: a.responseBody,
  responseTruncated: a.responseTruncated,
  outcome: a.outcome,
  nextAttemptAt: iso(a.nextAttemptAt),
});

const deliveryView = (d: WebhookDelivery, attempts: WebhookAttempt[]): WebhookDeliveryResponse => ({
  id: d.id,
  subscriptionId: d.subscriptionId,
  event: d.eventType,
  eventId: d.eventId,
  status: d.status,
  attempts: d.attempts,
  nextAttemptAt: iso(d.nextAttemptAt),
  lastResponseStatus: d.lastStatus,
  lastError: d.lastError,
  createdAt: d.createdAt.toISOString(),
  deliveredAt: iso(d.deliveredAt),
  deadAt: iso(d.deadAt),
  attemptLog: attempts.map(attemptView),
});

/** Webhook subscriptions of an organization and their delivery log (docs/lending/webhooks.md). */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly config: LendingConfig,
    private readonly data: TenantData,
    private readonly subscriptions: WebhookSubscriptionsRepository,
  ) {}

  eventTypes(): WebhookEventTypeResponse[] {
    return WEBHOOK_EVENT_TYPES.map((event) => ({ event, group: event.split('.')[1] }));
  }

  async create(org: OrganizationId, dto: CreateWebhookSubscriptionRequest) {
    this.assertConfigured();
    const max = this.config.WEBHOOK_SUBSCRIPTIONS_MAX_PER_ORGANIZATION;
    const created = await this.data.run(org, async (tx) => {
      // A soft bound (two concurrent creates may both pass it); it keeps one organization's fan-out small.
      if ((await this.subscriptions.list(tx, org)).length >= max)
        throw webhooksError(WebhooksError.SUBSCRIPTION_LIMIT_REACHED, { max });
      return this.refusingBadUrls(() =>
        this.subscriptions.create(tx, org, {
          url: dto.url,
          eventTypes: dto.events,
          description: dto.description ?? null,
        }),
      );
    });
    return { ...subscriptionView(created.subscription), secret: created.secret };
  }

  async list(org: OrganizationId) {
    this.assertConfigured();
    const items = (await this.data.run(org, (tx) => this.subscriptions.list(tx, org))).map(subscriptionView);
    return { items, total: items.length };
  }

  async get(org: OrganizationId, id: string) {
    this.assertConfigured();
    const found = await this.data.run(org, (tx) => this.subscriptions.get(tx, org, id));
    if (!found) throw webhooksError(WebhooksError.SUBSCRIPTION_NOT_FOUND, { subscriptionId: id });
    return subscriptionView(found);
  }

  async update(org: OrganizationId, dto: UpdateWebhookSubscriptionRequest) {
    this.assertConfigured();
    const updated = await this.data.run(org, (tx) =>
      this.refusingBadUrls(() =>
        this.subscriptions.update(tx, org, dto.subscriptionId, {
          url: dto.url,
          eventTypes: dto.events,
          enabled: dto.enabled,
          description: dto.description,
        }),
      ),
    );
    if (!updated)
      throw webhooksError(WebhooksError.SUBSCRIPTION_NOT_FOUND, { subscriptionId: dto.subscriptionId });
    return subscriptionView(updated);
  }

  async delete(org: OrganizationId, id: string) {
    this.assertConfigured();
    if (!(await this.data.run(org, (tx) => this.subscriptions.delete(tx, org, id))))
      throw webhooksError(WebhooksError.SUBSCRIPTION_NOT_FOUND, { subscriptionId: id });
    return { id, deleted: true };
  }

  async rotateSecret(org: OrganizationId, dto: RotateWebhookSecretRequest) {
    this.assertConfigured();
    const rotated = await this.data.run(org, (tx) =>
      this.subscriptions.rotateSecret(tx, org, dto.subscriptionId, dto.overlapSeconds),
    );
    if (!rotated)
      throw webhooksError(WebhooksError.SUBSCRIPTION_NOT_FOUND, { subscriptionId: dto.subscriptionId });
    return { ...subscriptionView(rotated.subscription), secret: rotated.secret };
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
    return { items: items.map((x) => deliveryView(x.delivery, x.attempts)), total };
  }

  /** A dead delivery back to pending, due now, with a fresh attempt budget (same id, same body). */
  async redrive(org: OrganizationId, deliveryId: string) {
    this.assertConfigured();
    return this.data.run(org, async (tx) => {
      if (await this.subscriptions.redrive(tx, org, deliveryId)) return { deliveryId, status: 'pending' };
      const found = await this.subscriptions.delivery(tx, org, deliveryId);
      if (!found) throw webhooksError(WebhooksError.DELIVERY_NOT_FOUND, { deliveryId });
      throw webhooksError(WebhooksError.DELIVERY_NOT_DEAD, { status: found.status });
    });
  }

  private assertConfigured(): void {
    if (this.config.webhooksSecretKey() === null) throw webhooksError(WebhooksError.NOT_CONFIGURED);
  }

  /** The SSRF guard's refusals become the area's coded, localised 422s. */
  private async refusingBadUrls<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      if (e instanceof WebhookTargetError) {
        throw webhooksError(refusalReason(e.reason), {
          address: e.details.address ?? '',
          addressClass: e.details.addressClass ?? '',
        });
      }
      // Event types and description are validated by the DTO first: a RangeError here is still the
      // caller's input, never a 500.
      if (e instanceof RangeError) throw webhooksError(WebhooksError.URL_INVALID);
      throw e;
    }
  }
}
