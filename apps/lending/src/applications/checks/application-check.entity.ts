import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  ForeignKey,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';
import { LoanApplication } from '../application.entity';
import { sqlIn } from '../../common/columns';
import { CHECK_STATUSES, CHECK_STEPS, type CheckStatus, type CheckStep } from './check-steps';

/** One check step of an application: its current status, provider and result (retries overwrite it). */
@Entity({ name: 'application_checks' })
@ForeignKey(() => LoanApplication, ['organizationId', 'applicationId'], ['organizationId', 'id'], {
  name: 'application_checks_application_fkey',
})
@Index('application_checks_app_step_key', ['applicationId', 'step'], { unique: true })
@Check('application_checks_step_check', sqlIn('step', CHECK_STEPS))
@Check('application_checks_status_check', sqlIn('status', CHECK_STATUSES))
export class ApplicationCheck {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'application_checks_organization_id_fkey' })
  organizationId: OrganizationId;
  @Column({ name: 'application_id', type: 'uuid' })
  applicationId: string;
  @Column({ type: 'text' }) step: CheckStep;
  @Column({ type: 'text' }) status: CheckStatus;
  @Column({ type: 'text' }) provider: string;
  /** Calls made for this step so far (1 after the first run, 2 after a retry, ...). */
  @Column({ type: 'integer', default: 0 }) attempts: number;
  /** The provider's answer as the step reads it (scores, factors, report summary...). */
  @Column({ type: 'jsonb', nullable: true }) result: Record<string, unknown> | null;
  @Column({ name: 'reason_code', type: 'text', nullable: true }) reasonCode: string | null;
  @Column({ name: 'started_at', type: 'timestamptz', nullable: true }) startedAt: Date | null;
  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true }) completedAt: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
