import {
  ENVELOPE_NOTE,
  TENANT_KEY_REASONS,
  tenantKeyScheme,
  type ApiReferenceDefinition,
} from '@platform/api-docs';
import { AccessError, accessError } from './access/access.errors';
import { CommonError } from '@platform/envelope';
import { idempotencyError } from '@platform/idempotency';
import { VerificationAppModule } from './app.module';
import { casesError } from './cases/cases.errors';
import { checksError } from './checks/checks.errors';
import { documentsError } from './documents/documents.errors';
import { portalError } from './portal/portal.errors';
import { reportsError } from './reports/reports.errors';
import { reviewError } from './review/review.errors';
import { summaryError } from './summary/summary.errors';
import { webhooksError } from './webhooks/webhooks.errors';

/** Verification's API reference: docs/openapi/verification.<lang>.json, at /docs/verification. */
export const VERIFICATION_REFERENCE: ApiReferenceDefinition = {
  service: 'verification',
  title: 'Verification check API',
  version: '1',
  description: [
    'Identity and document verification cases of an organization.',
    ENVELOPE_NOTE,
    'Calls: `X-API-Key` and `Service-Organization-Id`; each key holds the permission areas it was issued with.',
  ].join('\n\n'),
  tags: {
    'Verification cases': 'Cases, found by your own reference.',
    Documents:
      "A case's documents: signed upload URLs (PUT the bytes once, before they expire), metadata, status history and the bytes.",
    Checks:
      "The orchestrator's stored check steps of a case (file type, MRZ, expiry, name, birth date, duplicates, providers), each with its rule and evidence.",
    'Provider checks':
      'KYC (individuals) and KYB (businesses) sessions with the identity provider; the sandbox answers at once from documented magic inputs.',
    OAuth:
      'OAuth 2.0 client credentials: exchange an API key for a short-lived bearer token (this route answers in the RFC 6749 shape, not the envelope).',
    'Organization settings': "Your organization's settings, such as the IP allowlist.",
    'Activity and usage': 'Who did what and when, and the monthly usage (checks).',
    'Webhook endpoints':
      'Where the five events are POSTed, signed with HMAC-SHA256 (X-Service-Signature); the delivery log, redrive and secret rotation.',
    'Borrower portal':
      "The borrower's upload page behind a one-time link (no credentials: the token in the path is one).",
    'Summary reports':
      'The summary as a signed PDF with a QR code (each rendering is an issuance, logged), the issuance log and revocation.',
    Summary:
      "A case's summary (identity match, authenticity, flags citing their rules and evidence, recommendation): each generation is a new version and moves the case.",
    'Manual review':
      'Review tasks opened by the summary rules or by hand: assigned, commented and decided (the decision moves the case).',
    'Report verification':
      'The public address of a report (anonymous, rate limited): issued or not, current, superseded or revoked, unaltered or altered; the published keys; the full view by password.',
  },
  module: VerificationAppModule.register({}),
  schemes: {
    'api-key': {
      ...tenantKeyScheme('X-API-Key', "The organization's key; send `Service-Organization-Id` with it."),
      reasons: [...TENANT_KEY_REASONS, AccessError.IP_NOT_ALLOWED],
    },
    oauth: {
      header: 'Authorization',
      description:
        '`Bearer <token>`: a short-lived token from `POST /api/v1/oauth/token` (OAuth 2.0 client credentials: `client_id` = organization id, `client_secret` = API key), with the permission areas of the key it was exchanged for, or the `scope` it asked for among them.',
      oauth2ClientCredentials: {
        tokenUrl: '/api/v1/oauth/token',
        scopes: {
          'cases:read': 'Read cases, their history, check steps, summaries and reports',
          'cases:write':
            'Create and cancel cases, issue upload links, generate summaries, render and revoke reports',
          'documents:read': "Read a case's documents and their bytes",
          'documents:write': 'Sign document uploads',
          'provider-checks:read': 'Read provider sessions',
          'provider-checks:write': 'Start provider sessions',
          'manual-review:read': 'Read review tasks',
          'manual-review:write': 'Open, assign, comment on and decide review tasks',
          'activity:read': 'Read the activity history',
          'usage:read': 'Read the monthly usage',
          'settings:manage': 'Manage organization settings and webhook endpoints',
        },
      },
      reasons: [
        AccessError.BEARER_TOKEN_INVALID,
        AccessError.BEARER_TOKEN_EXPIRED,
        AccessError.BEARER_TOKEN_REVOKED,
        AccessError.IP_NOT_ALLOWED,
        CommonError.TENANT_MISMATCH,
      ],
    },
  },
  denied: [CommonError.SCOPE_MISSING],
  errors: [
    accessError,
    casesError,
    idempotencyError,
    checksError,
    documentsError,
    portalError,
    reportsError,
    reviewError,
    summaryError,
    webhooksError,
  ],
};
