import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';
import { VerificationCase } from './verification-case.entity';

/**
 * An applicant upload token of a case: only its SHA-256 (hex) is stored, the token itself is shown once
 * in `applicantUploadUrl`. Single use: the borrower portal sets `used_at` when the borrower finishes,
 * retiring the case's other unused tokens in the same transaction (docs/verification/portal.md).
 */
@Entity({ name: 'case_upload_tokens' })
@Index('case_upload_tokens_case_idx', ['organizationId', 'caseId'])
export class CaseUploadToken {
  @PrimaryColumn({ name: 'token_hash', type: 'text' }) tokenHash: string;
  @Column({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'case_upload_tokens_organization_id_fkey' })
  organizationId: OrganizationId;
  @Column({ name: 'case_id', type: 'uuid' })
  @ForeignKey(() => VerificationCase, { name: 'case_upload_tokens_case_id_fkey' })
  caseId: string;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt: Date;
  @Column({ name: 'used_at', type: 'timestamptz', nullable: true }) usedAt: Date | null;
  /** The portal's default language for this link (`POST .../upload-link`); null: the browser's. */
  @Column({ name: 'language', type: 'text', nullable: true }) language: string | null;
}
