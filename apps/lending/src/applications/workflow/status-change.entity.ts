import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';
import { LoanApplication } from '../application.entity';
import { sqlIn } from '../../common/columns';
import { APPLICATION_ACTIONS } from './application-workflow';

export const MOVE_ACTORS = ['key', 'rules'] as const;

/**
 * One line of an application's status history: append-only (the tenant role may not update or delete
 * it), numbered per application (`seq`, taken under the application's row lock, so the order is the
 * order of the moves even inside one transaction).
 */
@Entity({ name: 'application_status_history' })
@ForeignKey(() => LoanApplication, ['organizationId', 'applicationId'], ['organizationId', 'id'], {
  name: 'application_status_history_application_fkey',
})
@Index('application_status_history_app_seq_key', ['applicationId', 'seq'], { unique: true })
@Check('application_status_history_actor_check', sqlIn('actor', MOVE_ACTORS))
@Check('application_status_history_action_check', sqlIn('action', APPLICATION_ACTIONS))
export class ApplicationStatusChange {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'application_status_history_organization_id_fkey' })
  organizationId: OrganizationId;
  @Column({ name: 'application_id', type: 'uuid' })
  applicationId: string;
  @Column({ type: 'integer' }) seq: number;
  /** Null on the first line (the application's creation). */
  @Column({ name: 'from_status', type: 'text', nullable: true }) fromStatus: string | null;
  @Column({ name: 'to_status', type: 'text' }) toStatus: string;
  @Column({ type: 'text' }) action: string;
  @Column({ type: 'text' }) actor: 'key' | 'rules';
  /** The key that made the move, or whose RunChecks led the rules to it. */
  @Column({ name: 'key_id', type: 'text', nullable: true }) keyId: string | null;
  @Column({ type: 'text', nullable: true }) reason: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
