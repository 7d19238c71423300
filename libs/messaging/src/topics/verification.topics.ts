import { defineContract, type EventOf } from '../contract';
import { instant, uuid } from '../json-schema';

/**
 * The verification service's five events (docs/verification/webhooks.md), the same ones its webhook
 * endpoints receive: written to verification's outbox in the transaction of the change, with the
 * outbox event id equal to the webhook `eventId`, so a consumer of both channels dedupes across them.
 * The key is the case id: one case's events stay in order on a partition.
 */
const common = {
  caseId: uuid("The verification case's id; also the message key, so one case's events stay in order."),
  organizationId: {
    type: 'string',
    minLength: 1,
    maxLength: 64,
    description: 'The organization (the tenant) owning the case; the `tenant-id` header repeats it.',
  },
} as const;

/** Ids of documents, review tasks and summaries: UUIDs today, opaque to consumers. */
const opaqueId = (description: string) =>
  ({ type: 'string', minLength: 1, maxLength: 128, description }) as const;

/** A status name of one of verification's state machines (PascalCase, e.g. `Approved`). */
const status = (description: string) =>
  ({ type: 'string', minLength: 1, maxLength: 64, description }) as const;
const nullableStatus = (description: string) =>
  ({ type: ['string', 'null'], maxLength: 64, description }) as const;

export const VerificationCaseStatusChanged = defineContract({
  topic: 'verification.case.status-changed.v1',
  eventType: 'verification.case.status-changed',
  schemaVersion: 1,
  aggregateType: 'verification.case',
  description:
    'A verification case changed status (creation included: `fromStatus` is then null). The status ' +
    'machine is in docs/verification-api.md, "Case statuses".',
  key: 'caseId',
  producers: ['verification'],
  schema: {
    ...common,
    externalReferenceId: {
      type: 'string',
      minLength: 1,
      maxLength: 128,
      description: "The caller's own reference of the case (e.g. its loan application id).",
    },
    fromStatus: nullableStatus('The status before the move; null when the case was just created.'),
    toStatus: status('The status after the move.'),
    changedAt: instant('When the case moved.'),
  },
  example: {
    caseId: '9b2f7c1e-4d1a-4f7e-8c3b-2a1d0e9f8c7b',
    organizationId: 'org-a',
    externalReferenceId: 'APP-2026-0042',
    fromStatus: 'AwaitingApplicant',
    toStatus: 'Cancelled',
    changedAt: '2026-11-24T09:15:02.120Z',
  },
});

export const VerificationDocumentUploaded = defineContract({
  topic: 'verification.document.uploaded.v1',
  eventType: 'verification.document.uploaded',
  schemaVersion: 1,
  aggregateType: 'verification.case',
  description:
    "A document was added to a case, by the applicant (the upload portal) or by the caller's system " +
    '(a signed upload URL). Carries the file facts, never its content.',
  key: 'caseId',
  producers: ['verification'],
  schema: {
    ...common,
    documentId: opaqueId("The document's id."),
    kind: {
      type: 'string',
      minLength: 1,
      maxLength: 64,
      description: 'What the document is (e.g. `passport`, `selfie`), as the uploader declared it.',
    },
    source: {
      type: 'string',
      enum: ['applicant', 'api'],
      description:
        "`applicant`: the borrower portal; `api`: the caller's system through a signed upload URL.",
    },
    contentType: {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      description: 'The media type found by sniffing the bytes (not the extension).',
    },
    sizeBytes: { type: 'integer', minimum: 0, description: 'Size of the file in bytes.' },
    sha256: {
      type: 'string',
      pattern: '^[0-9a-f]{64}$',
      description: "Lowercase hex SHA-256 of the file's bytes.",
    },
    uploadedAt: instant('When the upload completed.'),
  },
  example: {
    caseId: '9b2f7c1e-4d1a-4f7e-8c3b-2a1d0e9f8c7b',
    organizationId: 'org-a',
    documentId: '3e5a1c2b-6d7f-4a8b-9c0d-1e2f3a4b5c6d',
    kind: 'passport',
    source: 'applicant',
    contentType: 'image/jpeg',
    sizeBytes: 482113,
    sha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    uploadedAt: '2026-11-24T09:20:11.004Z',
  },
});

export const VerificationDocumentStatusChanged = defineContract({
  topic: 'verification.document.status-changed.v1',
  eventType: 'verification.document.status-changed',
  schemaVersion: 1,
  aggregateType: 'verification.case',
  description:
    "A document of a case changed status (e.g. accepted or rejected by the checks). Keyed by the case, so a case's document events keep their order.",
  key: 'caseId',
  producers: ['verification'],
  schema: {
    ...common,
    documentId: opaqueId("The document's id."),
    fromStatus: nullableStatus('The status before the move; null for the first status.'),
    toStatus: status('The status after the move.'),
    reason: {
      type: ['string', 'null'],
      maxLength: 128,
      description: 'For a rejection, the reason code (e.g. `FILE_TYPE_NOT_ALLOWED`); null otherwise.',
    },
    changedAt: instant('When the document moved.'),
  },
  example: {
    caseId: '9b2f7c1e-4d1a-4f7e-8c3b-2a1d0e9f8c7b',
    organizationId: 'org-a',
    documentId: '3e5a1c2b-6d7f-4a8b-9c0d-1e2f3a4b5c6d',
    fromStatus: 'Uploaded',
    toStatus: 'Rejected',
    reason: 'FILE_TYPE_NOT_ALLOWED',
    changedAt: '2026-11-24T09:20:12.500Z',
  },
});

export const VerificationManualReviewStatusChanged = defineContract({
  topic: 'verification.manual-review.status-changed.v1',
  eventType: 'verification.manual-review.status-changed',
  schemaVersion: 1,
  aggregateType: 'verification.case',
  description: 'A manual-review task of a case was created, assigned or decided (its status changed).',
  key: 'caseId',
  producers: ['verification'],
  schema: {
    ...common,
    taskId: opaqueId("The review task's id."),
    fromStatus: nullableStatus('The status before the move; null when the task was just created.'),
    toStatus: status('The status after the move.'),
    assignee: {
      type: ['string', 'null'],
      maxLength: 256,
      description:
        'Who the task is assigned to (the reviewer reference the caller gave); null when unassigned.',
    },
    changedAt: instant('When the task moved.'),
  },
  example: {
    caseId: '9b2f7c1e-4d1a-4f7e-8c3b-2a1d0e9f8c7b',
    organizationId: 'org-a',
    taskId: '5d6e7f80-1a2b-4c3d-8e9f-0a1b2c3d4e5f',
    fromStatus: 'Open',
    toStatus: 'Assigned',
    assignee: 'reviewer-17',
    changedAt: '2026-11-24T10:02:45.000Z',
  },
});

export const VerificationSummaryGenerated = defineContract({
  topic: 'verification.summary.generated.v1',
  eventType: 'verification.summary.generated',
  schemaVersion: 1,
  aggregateType: 'verification.case',
  description:
    "A case's summary (identity match, authenticity, flags, recommendation) was generated; read it, or its PDF, through the API.",
  key: 'caseId',
  producers: ['verification'],
  schema: {
    ...common,
    summaryId: opaqueId("The summary's id."),
    recommendation: {
      type: 'string',
      enum: ['approve', 'review', 'decline'],
      description: "The summary's recommendation.",
    },
    generatedAt: instant('When the summary was generated.'),
  },
  example: {
    caseId: '9b2f7c1e-4d1a-4f7e-8c3b-2a1d0e9f8c7b',
    organizationId: 'org-a',
    summaryId: '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d',
    recommendation: 'review',
    generatedAt: '2026-11-24T10:30:00.000Z',
  },
});

export type VerificationCaseStatusChangedV1 = EventOf<typeof VerificationCaseStatusChanged>;
export type VerificationDocumentUploadedV1 = EventOf<typeof VerificationDocumentUploaded>;
export type VerificationDocumentStatusChangedV1 = EventOf<typeof VerificationDocumentStatusChanged>;
export type VerificationManualReviewStatusChangedV1 = EventOf<typeof VerificationManualReviewStatusChanged>;
export type VerificationSummaryGeneratedV1 = EventOf<typeof VerificationSummaryGenerated>;
