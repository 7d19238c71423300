import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';
import { VerificationCase } from '../cases/verification-case.entity';
import type { ReportContent } from './report-content';

/**
 * One issued summary report (docs/verification/reports.md, "Issuance log"): append-only. The id is the
 * report id printed in the PDF and its QR code. What was issued never changes (a trigger refuses it);
 * only the status columns are ever set, once each: `superseded_by`/`superseded_at` when the case gets
 * a newer report, `revoked_at`/`revocation_reason` when the organization revokes it.
 */
@Entity({ name: 'report_issuances' })
// Issue times of one case strictly increase (reports.service.ts): they order its log.
@Index('report_issuances_case_idx', ['organizationId', 'caseId', 'issuedAt'], { unique: true })
export class ReportIssuance {
  @PrimaryColumn({ type: 'uuid' }) id: string;
  @Column({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'report_issuances_organization_id_fkey' })
  organizationId: OrganizationId;
  @Column({ name: 'case_id', type: 'uuid' })
  @ForeignKey(() => VerificationCase, { name: 'report_issuances_case_id_fkey' })
  caseId: string;
  @Column({ name: 'summary_id', type: 'uuid' }) summaryId: string;
  @Column({ name: 'summary_version', type: 'integer' }) summaryVersion: number;
  @Column({ type: 'text' }) language: string;
  /** SHA-256 (hex, lower case) of the exact PDF bytes. */
  @Column({ type: 'text' }) sha256: string;
  /** Detached JWS (EdDSA, RFC 7797 unencoded payload) over the PDF bytes. */
  @Column({ type: 'text' }) signature: string;
  @Column({ type: 'text' }) kid: string;
  @Column({ name: 'issued_at', type: 'timestamptz' }) issuedAt: Date;
  @Column({ name: 'superseded_by', type: 'uuid', nullable: true })
  @ForeignKey(() => ReportIssuance, { name: 'report_issuances_superseded_by_fkey' })
  supersededBy: string | null;
  @Column({ name: 'superseded_at', type: 'timestamptz', nullable: true }) supersededAt: Date | null;
  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true }) revokedAt: Date | null;
  @Column({ name: 'revocation_reason', type: 'text', nullable: true }) revocationReason: string | null;
  /** scrypt hash of the share password (report-password.ts), or null: no full view by password. */
  @Column({ name: 'password_hash', type: 'text', nullable: true }) passwordHash: string | null;
  /** What the PDF shows, as rendered: the full view answers it. */
  @Column({ type: 'jsonb' }) content: ReportContent;
  /** The exact PDF bytes issued (a few tens of KiB): the full view by password answers them. */
  @Column({ type: 'bytea', select: false }) pdf: Buffer;
}
