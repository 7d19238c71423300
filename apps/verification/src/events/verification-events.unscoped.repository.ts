// Unscoped: the outbox is the service's table, not a tenant's; events are written in the caller's transaction.
import { Injectable } from '@nestjs/common';
import {
  VerificationCaseStatusChanged,
  VerificationDocumentStatusChanged,
  VerificationDocumentUploaded,
  VerificationManualReviewStatusChanged,
  VerificationSummaryGenerated,
  type TopicContract,
} from '@platform/messaging';
import { OutboxWriter } from '@platform/outbox';
import { txManager, type Tx } from '@platform/persistence';
import { service } from '@platform/registry';
import type { OrganizationId } from '@platform/tenancy';
import { enqueueWebhook } from '@platform/webhooks';
import type { VerificationEventPayloads, VerificationEventType } from './verification-events';

/** What goes to Kafka: the webhook payload plus the tenant (libs/messaging verification.topics.ts). */
type KafkaPayload<T extends VerificationEventType> = VerificationEventPayloads[T] & {
  organizationId: string;
};

/**
 * The Kafka contract of each webhook event type. `satisfies` makes the compiler hold the two payload
 * definitions together: a field added to a webhook payload without its contract does not compile.
 */
export const VERIFICATION_EVENT_CONTRACTS = {
  'case.status_changed': VerificationCaseStatusChanged,
  'document.uploaded': VerificationDocumentUploaded,
  'document.status_changed': VerificationDocumentStatusChanged,
  'manual_review.status_changed': VerificationManualReviewStatusChanged,
  'summary.generated': VerificationSummaryGenerated,
} satisfies { [K in VerificationEventType]: TopicContract<KafkaPayload<K>> };

const SCHEMA = service('verification').schema;
const outbox = new OutboxWriter(SCHEMA);

/**
 * Writes one event to both channels in the caller's transaction: the outbox row (outbox-relay publishes
 * it to Kafka; the payload is validated against its contract here, so a bad event fails the change)
 * and the webhook deliveries of the organization's endpoints (libs/webhooks). The outbox row's id is
 * the webhook `eventId`, so the same event has one id everywhere.
 */
@Injectable()
export class VerificationEventsRepository {
  async record<T extends VerificationEventType>(
    tx: Tx,
    organizationId: OrganizationId,
    event: { type: T; id: string; data: VerificationEventPayloads[T] },
  ): Promise<void> {
    const runner = txManager(tx);
    const contract = VERIFICATION_EVENT_CONTRACTS[event.type] as unknown as TopicContract<KafkaPayload<T>>;
    await outbox.append(
      runner,
      contract,
      { ...event.data, organizationId },
      { tenantId: organizationId, eventId: event.id },
    );
    await enqueueWebhook(runner, SCHEMA, {
      tenantId: organizationId,
      eventType: event.type,
      eventId: event.id,
      payload: event.data,
    });
  }
}
