import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { VerificationEventsRepository } from './verification-events.unscoped.repository';

/**
 * The spec's five webhook events (docs/verification-api.md, "Events"). Each payload names its case, so
 * a receiver can route it without another call; statuses are the PascalCase names of the machines.
 */
export interface VerificationEventPayloads {
  'case.status_changed': {
    caseId: string;
    externalReferenceId: string;
    fromStatus: string | null;
    toStatus: string;
    changedAt: string;
  };
  'document.uploaded': {
    caseId: string;
    documentId: string;
    kind: string;
    /** `applicant` (the borrower portal) or `api` (the caller's system, through a signed upload URL). */
    source: 'applicant' | 'api';
    contentType: string;
    sizeBytes: number;
    sha256: string;
    uploadedAt: string;
  };
  'document.status_changed': {
    caseId: string;
    documentId: string;
    fromStatus: string | null;
    toStatus: string;
    /** Why, for a rejection: a reason code (e.g. `FILE_TYPE_NOT_ALLOWED`). */
    reason: string | null;
    changedAt: string;
  };
  'manual_review.status_changed': {
    caseId: string;
    taskId: string;
    fromStatus: string | null;
    toStatus: string;
    assignee: string | null;
    changedAt: string;
  };
  'summary.generated': {
    caseId: string;
    summaryId: string;
    recommendation: 'approve' | 'review' | 'decline';
    generatedAt: string;
  };
}

export type VerificationEventType = keyof VerificationEventPayloads;

export const VERIFICATION_EVENT_TYPES = [
  'case.status_changed',
  'document.uploaded',
  'document.status_changed',
  'manual_review.status_changed',
  'summary.generated',
] as const satisfies readonly VerificationEventType[];

/**
 * The one way verification announces a change: called inside the transaction that makes it, so the
 * change, its outbox row (Kafka, libs/messaging verification.topics.ts) and its webhook deliveries
 * commit together or not at all (docs/verification/webhooks.md). Returns the event id, which is the
 * outbox row's id and the webhook body's `eventId`.
 */
@Injectable()
export class VerificationEvents {
  constructor(private readonly repository: VerificationEventsRepository) {}

  async emit<T extends VerificationEventType>(
    tx: Tx,
    organizationId: OrganizationId,
    type: T,
    data: VerificationEventPayloads[T],
  ): Promise<string> {
    const eventId = randomUUID();
    await this.repository.record(tx, organizationId, { type, id: eventId, data });
    return eventId;
  }
}
