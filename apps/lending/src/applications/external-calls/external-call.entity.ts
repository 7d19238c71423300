import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';
import { LoanApplication } from '../application.entity';
import { sqlIn } from '../../common/columns';

export const EXTERNAL_CALL_STATUSES = ['ok', 'error', 'timeout'] as const;
export type ExternalCallStatus = (typeof EXTERNAL_CALL_STATUSES)[number];
export const EXTERNAL_CALL_MODES = ['stub', 'live'] as const;

/**
 * One call to an external service (append-only), with its request and response bodies already
 * redacted (external-calls/redaction.ts). Written in its own transaction right after the call, so a
 * call is logged even when what follows fails.
 */
@Entity({ name: 'external_calls' })
@ForeignKey(() => LoanApplication, ['organizationId', 'applicationId'], ['organizationId', 'id'], {
  name: 'external_calls_application_fkey',
})
@Index('external_calls_org_created_idx', ['organizationId', 'createdAt'])
@Index('external_calls_org_app_created_idx', ['organizationId', 'applicationId', 'createdAt'])
@Check('external_calls_status_check', sqlIn('status', EXTERNAL_CALL_STATUSES))
@Check('external_calls_mode_check', sqlIn('mode', EXTERNAL_CALL_MODES))
export class ExternalCall {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'external_calls_organization_id_fkey' })
  organizationId: OrganizationId;
  @Column({ name: 'application_id', type: 'uuid', nullable: true })
  applicationId: string | null;
  @Column({ name: 'customer_id', type: 'uuid', nullable: true }) customerId: string | null;
  /** The check step the call served, if any. */
  @Column({ name: 'check_step', type: 'text', nullable: true }) checkStep: string | null;
  @Column({ type: 'text' }) provider: string;
  @Column({ type: 'text' }) operation: string;
  @Column({ type: 'text' }) mode: 'stub' | 'live';
  @Column({ type: 'text' }) status: ExternalCallStatus;
  @Column({ type: 'jsonb', nullable: true }) request: unknown;
  @Column({ type: 'jsonb', nullable: true }) response: unknown;
  @Column({ type: 'text', nullable: true }) error: string | null;
  @Column({ name: 'duration_ms', type: 'integer' }) durationMs: number;
  @Column({ name: 'started_at', type: 'timestamptz' }) startedAt: Date;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
