import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryColumn, Unique } from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';
import { sqlIn } from '../../common/columns';
import { Customer } from '../customer.entity';
import {
  DOCUMENT_STATUSES,
  DOCUMENT_TYPES,
  type DocumentStatus,
  type DocumentType,
} from '../customer-statuses';
import { DOCUMENT_CONTENT_TYPES, type DocumentContentType } from './document-files';

/**
 * A customer's document: the bytes live in DocumentStorage under `storage_key` (derived by the server),
 * this row holds what was found about them (type from magic bytes, size, SHA-256) and the review.
 */
@Entity({ name: 'customer_documents' })
@ForeignKey(() => Customer, ['organizationId', 'customerId'], ['organizationId', 'id'], {
  name: 'customer_documents_customer_fkey',
})
@Unique('customer_documents_storage_key_key', ['storageKey'])
@Index('customer_documents_customer_idx', ['organizationId', 'customerId', 'uploadedAt'])
@Check('customer_documents_type_check', sqlIn('type', DOCUMENT_TYPES))
@Check('customer_documents_status_check', sqlIn('status', DOCUMENT_STATUSES))
@Check('customer_documents_content_type_check', sqlIn('content_type', DOCUMENT_CONTENT_TYPES))
@Check('customer_documents_size_check', 'size_bytes > 0')
@Check('customer_documents_sha256_check', `sha256 ~ '^[0-9a-f]{64}$'`)
export class CustomerDocument {
  /** Chosen by the server before the bytes are stored: it is the last segment of the storage key. */
  @PrimaryColumn({ type: 'uuid' }) id: string;
  @Column({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'customer_documents_organization_id_fkey' })
  organizationId: OrganizationId;
  @Column({ name: 'customer_id', type: 'uuid' }) customerId: string;
  @Column({ type: 'text' }) type: DocumentType;
  @Column({ type: 'text', default: 'uploaded' }) status: DocumentStatus;
  /** The client's name, reduced to a safe display name; never part of the storage key. */
  @Column({ name: 'file_name', type: 'text' }) fileName: string;
  @Column({ name: 'content_type', type: 'text' }) contentType: DocumentContentType;
  @Column({ name: 'size_bytes', type: 'integer' }) sizeBytes: number;
  @Column({ type: 'text' }) sha256: string;
  @Column({ name: 'storage_key', type: 'text' }) storageKey: string;
  @Column({ name: 'review_comment', type: 'text', nullable: true }) reviewComment: string | null;
  @Column({ name: 'reviewed_at', type: 'timestamptz', nullable: true }) reviewedAt: Date | null;
  @CreateDateColumn({ name: 'uploaded_at', type: 'timestamptz' }) uploadedAt: Date;
}
