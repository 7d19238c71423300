import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Language } from '@platform/i18n';
import type { Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { VerificationConfig } from '../config/verification.config';
import { CaseUploadTokensRepository } from './case-upload-tokens.repository';

/** Where the borrower portal serves a token (docs/verification/portal.md). */
export const APPLICANT_UPLOAD_PATH = '/portal/v1/upload/';
/** Tokens look like this; anything else is refused before the database is asked. */
export const UPLOAD_TOKEN_PATTERN = /^vup_[A-Za-z0-9_-]{43}$/;
const HOUR = 3_600_000;

/** The only form in which a token is stored or looked up: SHA-256, hex. */
export const hashUploadToken = (token: string): string => createHash('sha256').update(token).digest('hex');

export interface IssuedUploadLink {
  token: string;
  url: string;
  expiresAt: Date;
}

/**
 * Issues applicant upload tokens: at case creation (CasesService) and on `POST .../upload-link` (the
 * portal area). One place, so both links obey the same rules: 32 random bytes, only the hash stored,
 * bound to the case and organization, single use (the portal retires the case's other tokens when one
 * is used).
 */
@Injectable()
export class UploadTokenIssuer {
  constructor(
    private readonly config: VerificationConfig,
    private readonly tokens: CaseUploadTokensRepository,
  ) {}

  async issue(
    tx: Tx,
    organizationId: OrganizationId,
    caseId: string,
    now: Date,
    options: { ttlHours?: number; language?: Language | null } = {},
  ): Promise<IssuedUploadLink> {
    const token = `vup_${randomBytes(32).toString('base64url')}`;
    const ttl = options.ttlHours ?? this.config.APPLICANT_UPLOAD_TOKEN_TTL_HOURS;
    const expiresAt = new Date(now.getTime() + ttl * HOUR);
    await this.tokens.add(
      organizationId,
      {
        tokenHash: hashUploadToken(token),
        caseId,
        createdAt: now,
        expiresAt,
        language: options.language ?? null,
      },
      tx,
    );
    return { token, url: this.urlOf(token), expiresAt };
  }

  /** The borrower's address of a token: the configured public origin, never a request's Host. */
  urlOf(token: string): string {
    return `${this.config.APPLICANT_PORTAL_URL.replace(/\/+$/, '')}${APPLICANT_UPLOAD_PATH}${token}`;
  }
}
