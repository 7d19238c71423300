import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';
import { VerificationCase } from '../cases/verification-case.entity';
import {
  DOCUMENT_KINDS,
  DOCUMENT_SOURCES,
  DOCUMENT_STATUSES,
  sqlValues,
  type DocumentKind,
  type DocumentSource,
  type DocumentStatus,
} from './document-statuses';

/** PostgreSQL returns bigint as text; sizes stay far below 2^53. */
const bigintAsNumber = {
  to: (v: number | null | undefined) => v,
  from: (v: string | null) => (v === null ? null : Number(v)),
};

/**
 * One document of a case (docs/verification/documents.md). The row exists from the signed upload URL
 * on (AwaitingUpload); its bytes live in FileStorage under `storage_key`, which the server derives
 * (`<organization>/<case>/<document>`) and never takes from a client. Statuses: document-statuses.ts.
 */
@Entity({ name: 'documents' })
@Index('documents_case_idx', ['organizationId', 'caseId', 'createdAt'])
@Index('documents_claim_idx', ['status', 'leaseUntil'])
@Index('documents_sha256_idx', ['sha256'])
@Check('documents_kind_check', sqlValues('kind', DOCUMENT_KINDS))
@Check('documents_source_check', sqlValues('source', DOCUMENT_SOURCES))
@Check('documents_status_check', sqlValues('status', DOCUMENT_STATUSES))
export class Document {
  /** Chosen by the server before the bytes are stored: it is part of the storage key. */
  @PrimaryColumn({ type: 'uuid' }) id: string;
  @Column({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'documents_organization_id_fkey' })
  organizationId: OrganizationId;
  @Column({ name: 'case_id', type: 'uuid' })
  @ForeignKey(() => VerificationCase, { name: 'documents_case_id_fkey' })
  caseId: string;
  @Column({ type: 'text' }) kind: DocumentKind;
  @Column({ type: 'text' }) source: DocumentSource;
  @Column({ type: 'text' }) status: DocumentStatus;
  /** The name the sender gave (last path segment only); shown, never used as a path. */
  @Column({ name: 'file_name', type: 'text', nullable: true }) fileName: string | null;
  /** What the sender said the file is (normalised, one of DOCUMENT_CONTENT_TYPES). */
  @Column({ name: 'declared_content_type', type: 'text' }) declaredContentType: string;
  /** What the orchestrator's file-type step found in the bytes. */
  @Column({ name: 'detected_type', type: 'text', nullable: true }) detectedType: string | null;
  /** Largest body this document's upload may have. */
  @Column({ name: 'max_bytes', type: 'int' }) maxBytes: number;
  @Column({ name: 'size_bytes', type: 'bigint', nullable: true, transformer: bigintAsNumber })
  sizeBytes: number | null;
  /** Hex SHA-256 of the bytes: integrity, and duplicate detection across cases. */
  @Column({ type: 'text', nullable: true }) sha256: string | null;
  @Column({ name: 'storage_key', type: 'text', nullable: true }) storageKey: string | null;
  /** When the signed upload URL lapses (AwaitingUpload only). */
  @Column({ name: 'upload_expires_at', type: 'timestamptz', nullable: true }) uploadExpiresAt: Date | null;
  /** Orchestrator runs started, crashed ones included. */
  @Column({ name: 'processing_attempts', type: 'int', default: 0 }) processingAttempts: number;
  /** The orchestrator's claim: another replica may take the document once this has passed. */
  @Column({ name: 'lease_until', type: 'timestamptz', nullable: true }) leaseUntil: Date | null;
  /** A reason code when Rejected (e.g. `FILE_TYPE_NOT_ALLOWED`). */
  @Column({ name: 'rejection_reason', type: 'text', nullable: true }) rejectionReason: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'uploaded_at', type: 'timestamptz', nullable: true }) uploadedAt: Date | null;
  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' }) updatedAt: Date;
}
