import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';
import { Document } from './document.entity';

/** One move of a document's status. Append-only: the repository offers no update or delete. */
@Entity({ name: 'document_status_history' })
@Index('document_status_history_document_idx', ['organizationId', 'documentId', 'id'])
export class DocumentStatusChange {
  @PrimaryGeneratedColumn({ type: 'bigint' }) id: string;
  @Column({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'document_status_history_organization_id_fkey' })
  organizationId: OrganizationId;
  @Column({ name: 'document_id', type: 'uuid' })
  @ForeignKey(() => Document, { name: 'document_status_history_document_id_fkey' })
  documentId: string;
  /** Null on the first entry: the document's creation. */
  @Column({ name: 'from_status', type: 'text', nullable: true }) fromStatus: string | null;
  @Column({ name: 'to_status', type: 'text' }) toStatus: string;
  /** Why, when the move has a reason (a rejection's code). */
  @Column({ type: 'text', nullable: true }) reason: string | null;
  @Column({ name: 'changed_at', type: 'timestamptz' }) changedAt: Date;
}
