// Unscoped: libs/webhooks' tables through its store; every method takes the organization.
import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { txManager, type Tx } from '@platform/persistence';
import { service } from '@platform/registry';
import type { OrganizationId } from '@platform/tenancy';
import {
  enqueueWebhook,
  WebhookDeliveries,
  WebhookSubscriptions,
  type WebhookAttempt,
  type WebhookDelivery,
  type WebhookDeliveryStatus,
  type WebhookSubscriptionStore,
} from '@platform/webhooks';

const SCHEMA = service('verification').schema;

/** The test event `POST …/test` sends; not one of the five, and only to the endpoint asked. */
export const PING_EVENT = 'ping';

/**
 * Verification's webhook endpoints and their delivery log: libs/webhooks' tables in the verification
 * schema, always by organization (another organization's ids are simply not found).
 */
@Injectable()
export class WebhookEndpointsRepository {
  constructor(
    private readonly subscriptions: WebhookSubscriptions,
    private readonly deliveries: WebhookDeliveries,
  ) {}

  /** The endpoints themselves, in the transaction `tx` (every call names the organization). */
  store(tx: Tx): WebhookSubscriptionStore {
    return this.subscriptions.withRunner(txManager(tx));
  }

  listDeliveries(
    org: OrganizationId,
    endpointId: string,
    filter: { status?: WebhookDeliveryStatus; limit?: number; offset?: number },
  ): Promise<{ items: WebhookDelivery[]; total: number }> {
    return this.deliveries.list(org, { ...filter, subscriptionId: endpointId });
  }

  /** The delivery with its attempts, when it belongs to this endpoint of the organization. */
  async delivery(
    org: OrganizationId,
    endpointId: string,
    deliveryId: string,
  ): Promise<{ delivery: WebhookDelivery; attempts: WebhookAttempt[] } | undefined> {
    const delivery = await this.deliveries.get(org, deliveryId);
    if (!delivery || delivery.subscriptionId !== endpointId) return undefined;
    return { delivery, attempts: (await this.deliveries.attempts(org, deliveryId)) ?? [] };
  }

  /** Dead deliveries of the endpoint back to pending, due now; all of them when `deliveryId` is absent. */
  redrive(org: OrganizationId, endpointId: string, deliveryId?: string): Promise<string[]> {
    return this.deliveries.redrive(org, {
      subscriptionId: endpointId,
      ...(deliveryId === undefined ? {} : { deliveryIds: [deliveryId] }),
    });
  }

  /** Enqueues a ping to this endpoint only; its delivery id, or undefined when there is no such endpoint. */
  async enqueuePing(
    tx: Tx,
    org: OrganizationId,
    endpointId: string,
    sentAt: Date,
  ): Promise<string | undefined> {
    const [queued] = await enqueueWebhook(txManager(tx), SCHEMA, {
      tenantId: org,
      eventType: PING_EVENT,
      eventId: randomUUID(),
      payload: { endpointId, sentAt: sentAt.toISOString() },
      subscriptionIds: [endpointId],
    });
    return queued?.deliveryId;
  }
}
