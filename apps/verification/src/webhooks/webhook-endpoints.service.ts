import { Injectable } from '@nestjs/common';
import { Transactions } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import {
  WebhookTargetError,
  type WebhookAttempt,
  type WebhookDelivery,
  type WebhookSubscription,
} from '@platform/webhooks';
import { VerificationConfig } from '../config/verification.config';
import type {
  CreateWebhookEndpointRequest,
  ListWebhookDeliveriesRequest,
  RotateWebhookSecretRequest,
  UpdateWebhookEndpointRequest,
} from './dto/webhook-endpoint.request';
import { WebhookEndpointsRepository } from './webhook-endpoints.repository';
import { refusalReason, WebhooksError, webhooksError } from './webhooks.errors';

export interface WebhookEndpointView {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
  secretRotatedAt: string | null;
  previousSecretValidUntil: string | null;
}

export interface WebhookDeliveryView {
  id: string;
  endpointId: string;
  event: string;
  eventId: string;
  status: string;
  attempts: number;
  nextAttemptAt: string | null;
  lastResponseStatus: number | null;
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
  deadAt: string | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

const endpointView = (s: WebhookSubscription): WebhookEndpointView => ({
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

const deliveryView = (d: WebhookDelivery): WebhookDeliveryView => ({
  id: d.id,
  endpointId: d.subscriptionId,
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

/** Webhook endpoints of an organization (docs/verification/webhooks.md). */
@Injectable()
export class WebhookEndpointsService {
  constructor(
    private readonly config: VerificationConfig,
    private readonly transactions: Transactions,
    private readonly endpoints: WebhookEndpointsRepository,
  ) {}

  async create(org: OrganizationId, dto: CreateWebhookEndpointRequest) {
    this.assertConfigured();
    // A soft bound (two concurrent creates may both pass it); it keeps one organization's fan-out small.
    if ((await this.endpoints.list(org)).length >= this.config.WEBHOOK_ENDPOINTS_MAX_PER_ORGANIZATION)
      throw webhooksError(WebhooksError.ENDPOINT_LIMIT_REACHED, {
        max: this.config.WEBHOOK_ENDPOINTS_MAX_PER_ORGANIZATION,
      });
    const created = await this.refusingBadUrls(() =>
      this.endpoints.create(org, {
        url: dto.url,
        eventTypes: dto.events,
        description: dto.description ?? null,
      }),
    );
    return { ...endpointView(created.subscription), secret: created.secret };
  }

  async list(org: OrganizationId) {
    this.assertConfigured();
    const items = (await this.endpoints.list(org)).map(endpointView);
    return { items, total: items.length };
  }

  async get(org: OrganizationId, id: string) {
    this.assertConfigured();
    return endpointView(await this.found(org, id));
  }

  async update(org: OrganizationId, id: string, dto: UpdateWebhookEndpointRequest) {
    this.assertConfigured();
    const updated = await this.refusingBadUrls(() =>
      this.endpoints.update(org, id, {
        url: dto.url,
        eventTypes: dto.events,
        enabled: dto.enabled,
        description: dto.description,
      }),
    );
    if (!updated) throw webhooksError(WebhooksError.ENDPOINT_NOT_FOUND, { id });
    return endpointView(updated);
  }

  async delete(org: OrganizationId, id: string) {
    this.assertConfigured();
    if (!(await this.endpoints.delete(org, id)))
      throw webhooksError(WebhooksError.ENDPOINT_NOT_FOUND, { id });
    return { id, deleted: true };
  }

  async rotateSecret(org: OrganizationId, id: string, dto: RotateWebhookSecretRequest) {
    this.assertConfigured();
    const rotated = await this.endpoints.rotateSecret(org, id, dto.overlapSeconds);
    if (!rotated) throw webhooksError(WebhooksError.ENDPOINT_NOT_FOUND, { id });
    return { ...endpointView(rotated.subscription), secret: rotated.secret };
  }

  async deliveries(org: OrganizationId, id: string, q: ListWebhookDeliveriesRequest) {
    this.assertConfigured();
    await this.found(org, id);
    const { items, total } = await this.endpoints.listDeliveries(org, id, {
      status: q.status,
      offset: q.offset ?? 0,
      limit: q.limit ?? 20,
    });
    return { items: items.map(deliveryView), total };
  }

  async delivery(org: OrganizationId, id: string, deliveryId: string) {
    this.assertConfigured();
    await this.found(org, id);
    const found = await this.endpoints.delivery(org, id, deliveryId);
    if (!found) throw webhooksError(WebhooksError.DELIVERY_NOT_FOUND, { deliveryId });
    return { ...deliveryView(found.delivery), attemptLog: found.attempts.map(attemptView) };
  }

  /** One dead delivery back to pending, due now, with a fresh attempt budget. */
  async redrive(org: OrganizationId, id: string, deliveryId: string) {
    this.assertConfigured();
    await this.found(org, id);
    const redriven = await this.endpoints.redrive(org, id, deliveryId);
    if (!redriven.length) {
      const found = await this.endpoints.delivery(org, id, deliveryId);
      if (!found) throw webhooksError(WebhooksError.DELIVERY_NOT_FOUND, { deliveryId });
      throw webhooksError(WebhooksError.DELIVERY_NOT_DEAD, { status: found.delivery.status });
    }
    return { redriven };
  }

  /** Every dead delivery of the endpoint (possibly none). */
  async redriveDead(org: OrganizationId, id: string) {
    this.assertConfigured();
    await this.found(org, id);
    return { redriven: await this.endpoints.redrive(org, id) };
  }

  /** Sends a `ping` delivery to this endpoint only (paused or not), signed like any other. */
  async test(org: OrganizationId, id: string) {
    this.assertConfigured();
    const deliveryId = await this.transactions.run((tx) =>
      this.endpoints.enqueuePing(tx, org, id, new Date()),
    );
    if (!deliveryId) throw webhooksError(WebhooksError.ENDPOINT_NOT_FOUND, { id });
    return { deliveryId };
  }

  private async found(org: OrganizationId, id: string): Promise<WebhookSubscription> {
    const s = await this.endpoints.get(org, id);
    if (!s) throw webhooksError(WebhooksError.ENDPOINT_NOT_FOUND, { id });
    return s;
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
