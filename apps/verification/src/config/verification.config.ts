import {
  Equals,
  IsIn,
  IsInt,
  IsNotIn,
  IsString,
  IsUrl,
  Max,
  Min,
  ValidateBy,
  ValidateIf,
} from 'class-validator';
import { DataServiceConfig, Parses, Sensitive } from '@platform/config';
import { MinChars } from '@platform/envelope';
import { GATEWAY, service } from '@platform/registry';
import { withWebhookSettings } from '@platform/webhooks';
import { DEFAULT_TRUSTED_PROXIES } from '../access/client-address';
import { cidrListProblems } from '@platform/network';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEV_DOCUMENT_UPLOAD_SIGNING_SECRET } from '../documents/upload-signature';
import { IDENTITY_PROVIDER_NAMES, type IdentityProviderName } from '../providers/identity-provider';
import {
  DEV_REPORT_SIGNING_KEY,
  previousKeysFromSetting,
  signingKeyFromSetting,
  signingKeyProblem,
} from '../reports/report-keys';

/** Development default of the webhook secrets' encryption key: refused when set in production. */
export const DEV_WEBHOOKS_SECRET_KEY = 'dev-only-verification-webhooks-secret-key';

export class VerificationConfig extends withWebhookSettings(DataServiceConfig, DEV_WEBHOOKS_SECRET_KEY) {
  override PORT = service('verification').port;
  override KAFKA_CLIENT_ID = service('verification').name;
  /**
   * Public origin of the borrower upload portal (the gateway's): the base of a case's
   * `applicantUploadUrl` (`<origin>/portal/v1/upload/<token>`). Never taken from a request's Host.
   */
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false })
  APPLICANT_PORTAL_URL = `http://localhost:${GATEWAY.port}`;
  /** Lifetime of an applicant upload token (single use), from the case's creation. */
  @IsInt() @Min(1) @Max(720) APPLICANT_UPLOAD_TOKEN_TTL_HOURS = 72;
  /** How long an Idempotency-Key of case creation is remembered; at least the 24 hours we promise. */
  @IsInt() @Min(24) @Max(720) IDEMPOTENCY_KEY_TTL_HOURS = 24;
  /** Lifetime of an OAuth access token (client credentials, docs/verification/access.md). */
  @IsInt() @Min(60) @Max(3600) OAUTH_TOKEN_TTL_SECONDS = 600;
  /**
   * Peers whose `X-Forwarded-For` is believed when the IP allowlist reads the client's address (CIDR
   * blocks, IPv4 and IPv6, comma separated; a bare address is one host). Any other peer is the client.
   * Narrow it to the gateway pods' range in a deployment (docs/verification/access.md).
   */
  @Parses(cidrListProblems) TRUSTED_PROXIES = DEFAULT_TRUSTED_PROXIES;

  // Webhooks: the WEBHOOKS_* settings are libs/webhooks' withWebhookSettings (decision 0018).
  /** Webhook endpoints one organization may have. */
  @IsInt() @Min(1) @Max(1000) WEBHOOK_ENDPOINTS_MAX_PER_ORGANIZATION = 20;

  // Summary reports (docs/verification/reports.md).
  /**
   * Public origin of the report verification address printed in each PDF's QR code
   * (`<origin>/verify/v1/reports/<reportId>`): the gateway's. Never taken from a request's Host.
   */
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false })
  PUBLIC_VERIFY_URL = `http://localhost:${GATEWAY.port}`;
  /**
   * Ed25519 key that signs issued reports: a PKCS#8 PEM, or a secret of at least 32 characters the
   * key is derived from. Unset: the development key outside production; production refuses to start
   * without one or with the development key (the deployments carry it: libs/registry `secrets`).
   */
  @Sensitive()
  @ValidateIf((c: VerificationConfig) => c.REPORT_SIGNING_KEY !== '' || c.NODE_ENV === 'production')
  @IsNotIn([DEV_REPORT_SIGNING_KEY], { message: 'REPORT_SIGNING_KEY must not be the development key' })
  @ValidateBy({
    name: 'reportSigningKey',
    validator: {
      validate: (v: unknown) =>
        typeof v === 'string' && signingKeyProblem(() => signingKeyFromSetting(v)) === '',
      defaultMessage: (a) =>
        `REPORT_SIGNING_KEY: ${signingKeyProblem(() => signingKeyFromSetting(String(a?.value)))}`,
    },
  })
  REPORT_SIGNING_KEY = '';
  /**
   * Retired report keys, still published in /verify/v1/jwks.json so their reports keep verifying:
   * Ed25519 PEM blocks (private or public) and/or comma-separated signing secrets.
   */
  @Sensitive()
  @ValidateBy({
    name: 'reportPreviousKeys',
    validator: {
      validate: (v: unknown) =>
        typeof v === 'string' && signingKeyProblem(() => previousKeysFromSetting(v)) === '',
      defaultMessage: (a) =>
        `REPORT_SIGNING_PREVIOUS_KEYS: ${signingKeyProblem(() => previousKeysFromSetting(String(a?.value)))}`,
    },
  })
  REPORT_SIGNING_PREVIOUS_KEYS = '';

  // Checks (docs/verification/checks.md).
  /**
   * How often each replica's orchestrator looks for uploaded documents (SKIP LOCKED leases: every
   * replica may); 0 turns the loop off (tests drive `OrchestratorService.runOnce()` by hand).
   */
  @IsInt() @Min(0) @Max(3_600_000) ORCHESTRATOR_INTERVAL_MS = 2000;
  /** Documents one replica claims per round. */
  @IsInt() @Min(1) @Max(100) ORCHESTRATOR_BATCH_SIZE = 10;
  /** How long a claimed document is held; a replica that dies mid-run frees it when this lapses. */
  @IsInt() @Min(5000) @Max(3_600_000) ORCHESTRATOR_LEASE_MS = 120_000;
  /** Runs of one document (crashed or failed ones included) before it is rejected as unprocessable. */
  @IsInt() @Min(1) @Max(20) ORCHESTRATOR_MAX_ATTEMPTS = 3;
  /**
   * The identity provider of provider checks (KYC/KYB): `sandbox` answers at once, deterministically,
   * from documented magic inputs and calls nothing. The only adapter of this build.
   */
  @IsIn(IDENTITY_PROVIDER_NAMES) IDENTITY_PROVIDER: IdentityProviderName = 'sandbox';
  /** Production refuses to start on the sandbox provider unless this says so on purpose (before go-live). */
  @ValidateIf((c: VerificationConfig) => c.NODE_ENV === 'production' && c.IDENTITY_PROVIDER === 'sandbox')
  @Equals(true, {
    message: 'IDENTITY_PROVIDER=sandbox in production needs IDENTITY_PROVIDER_ALLOW_SANDBOX=true',
  })
  IDENTITY_PROVIDER_ALLOW_SANDBOX = false;

  // Documents (docs/verification/documents.md).
  /** Largest document accepted, in bytes; the gateway's upload routes forward 25 MiB at most. */
  @IsInt() @Min(1024) @Max(25 * 1024 * 1024) DOCUMENT_MAX_BYTES = 20 * 1024 * 1024;
  /** Lifetime of a signed upload URL (POST .../documents/signed-upload-url). */
  @IsInt() @Min(60) @Max(86_400) DOCUMENT_UPLOAD_URL_TTL_SECONDS = 900;
  /**
   * How often each replica moves AwaitingUpload documents whose URL lapsed to Expired (SKIP LOCKED:
   * every replica may); 0 turns the sweep off (tests call `DocumentsService.expireLapsedUploads()`).
   */
  @IsInt() @Min(0) @Max(3_600_000) DOCUMENT_EXPIRY_SWEEP_INTERVAL_MS = 60_000;
  /**
   * Signs the upload URLs (HMAC-SHA256): at least 32 characters, not the development default. Unset:
   * the development default outside production; in production signed uploads answer 503 until it is
   * set (the deployments carry it: libs/registry `secrets`). Rotating it voids the URLs issued before.
   */
  @Sensitive()
  @ValidateIf((c: VerificationConfig) => c.DOCUMENT_UPLOAD_SIGNING_SECRET !== '')
  @MinChars(32, { message: 'DOCUMENT_UPLOAD_SIGNING_SECRET must have at least 32 characters' })
  @IsNotIn([DEV_DOCUMENT_UPLOAD_SIGNING_SECRET], {
    message: 'DOCUMENT_UPLOAD_SIGNING_SECRET must not be the development default',
  })
  DOCUMENT_UPLOAD_SIGNING_SECRET = '';
  /** Where document bytes live: `local` (a directory every replica shares) or `s3` (S3-compatible). */
  @IsIn(['local', 's3']) VERIFICATION_STORAGE: 'local' | 's3' = 'local';
  /**
   * The `local` storage's directory, shared by every replica. Unset: `<OS temp dir>/verification-documents`
   * (development, tests); the deployments set it to the registry's `documents` volume.
   */
  @IsString() VERIFICATION_STORAGE_DIR = '';
  /** The `s3` storage: endpoint (path-style requests), bucket, region and credentials. */
  @ValidateIf((c: VerificationConfig) => c.VERIFICATION_STORAGE === 's3')
  @IsUrl({ protocols: ['http', 'https'], require_protocol: true, require_tld: false })
  S3_ENDPOINT = '';
  @ValidateIf((c: VerificationConfig) => c.VERIFICATION_STORAGE === 's3')
  @MinChars(3, { message: 'S3_BUCKET is required with VERIFICATION_STORAGE=s3' })
  S3_BUCKET = '';
  @MinChars(1) S3_REGION = 'us-east-1';
  @ValidateIf((c: VerificationConfig) => c.VERIFICATION_STORAGE === 's3')
  @MinChars(1, { message: 'S3_ACCESS_KEY_ID is required with VERIFICATION_STORAGE=s3' })
  S3_ACCESS_KEY_ID = '';
  @Sensitive()
  @ValidateIf((c: VerificationConfig) => c.VERIFICATION_STORAGE === 's3')
  @MinChars(1, { message: 'S3_SECRET_ACCESS_KEY is required with VERIFICATION_STORAGE=s3' })
  S3_SECRET_ACCESS_KEY = '';

  /** The upload URLs' key, or null when signed uploads are off (production without one). */
  documentUploadSigningSecret(): string | null {
    if (this.DOCUMENT_UPLOAD_SIGNING_SECRET) return this.DOCUMENT_UPLOAD_SIGNING_SECRET;
    return this.NODE_ENV === 'production' ? null : DEV_DOCUMENT_UPLOAD_SIGNING_SECRET;
  }

  /** The local storage directory (the setting, or a folder under the OS temp dir). */
  documentStorageDir(): string {
    return this.VERIFICATION_STORAGE_DIR || join(tmpdir(), 'verification-documents');
  }

  /** The report signing key's setting: the configured one, or the development key outside production. */
  reportSigningKey(): string {
    return this.REPORT_SIGNING_KEY || DEV_REPORT_SIGNING_KEY;
  }
}
