import { IsInt, IsUrl, Max, Min } from 'class-validator';
import { DataServiceConfig } from '@platform/config';
import { GATEWAY, service } from '@platform/registry';

export class VerificationConfig extends DataServiceConfig {
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
}
