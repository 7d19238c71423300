import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';
import { VerificationCase } from './verification-case.entity';

/** One move of a case's status. Append-only: the repository offers no update or delete. */
@Entity({ name: 'case_status_history' })
@Index('case_status_history_case_idx', ['organizationId', 'caseId', 'id'])
export class CaseStatusChange {
  @PrimaryGeneratedColumn({ type: 'bigint' }) id: string;
  @Column({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'case_status_history_organization_id_fkey' })
  organizationId: OrganizationId;
  @Column({ name: 'case_id', type: 'uuid' })
  @ForeignKey(() => VerificationCase, { name: 'case_status_history_case_id_fkey' })
  caseId: string;
  /** Null on the first entry: the case's creation. */
  @Column({ name: 'from_status', type: 'text', nullable: true }) fromStatus: string | null;
  @Column({ name: 'to_status', type: 'text' }) toStatus: string;
  @Column({ name: 'changed_at', type: 'timestamptz' }) changedAt: Date;
}
