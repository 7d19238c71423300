import { Injectable } from '@nestjs/common';
import {
  exportJwks,
  signReport,
  verifyReport,
  type OkpPublicJwk,
  type ReportSigningKey,
} from '@platform/verification-checks';
import { VerificationConfig } from '../config/verification.config';
import { previousKeysFromSetting, signingKeyFromSetting, type ReportVerifyingKey } from './report-keys';

/** The report signing key and the published keys (current first, then the retired ones). */
@Injectable()
export class ReportSigner {
  private readonly key: ReportSigningKey;
  private readonly published: ReportVerifyingKey[];

  constructor(config: VerificationConfig) {
    this.key = signingKeyFromSetting(config.reportSigningKey());
    const previous = previousKeysFromSetting(config.REPORT_SIGNING_PREVIOUS_KEYS).filter(
      (k) => k.kid !== this.key.kid,
    );
    this.published = [
      this.key,
      ...previous.filter((k, i) => previous.findIndex((p) => p.kid === k.kid) === i),
    ];
  }

  get kid(): string {
    return this.key.kid;
  }

  /** Detached JWS over the exact bytes. */
  sign(pdf: Buffer): string {
    return signReport(pdf, this.key);
  }

  /** Whether the JWS verifies over the bytes with one of the published keys. */
  verifies(pdf: Buffer, jws: string): boolean {
    return verifyReport(pdf, jws, this.published).valid;
  }

  jwks(): { keys: OkpPublicJwk[] } {
    return exportJwks(this.published);
  }
}
