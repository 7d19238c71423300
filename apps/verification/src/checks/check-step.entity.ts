import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';
import { VerificationCase } from '../cases/verification-case.entity';
import { ProviderSession } from '../providers/provider-session.entity';
import {
  CHECK_OUTCOMES,
  CHECK_STEPS,
  sqlIn,
  type CheckEvidence,
  type CheckOutcome,
  type CheckStepName,
} from './check-steps';

/**
 * One stored result of a check step (docs/verification/checks.md). A document's step is stored once:
 * re-running it (a reclaimed lease) replaces the row, so `(document_id, step)` stays unique. Provider
 * steps carry their session instead of a document.
 */
@Entity({ name: 'check_steps' })
@Index('check_steps_case_idx', ['organizationId', 'caseId', 'createdAt'])
@Index('check_steps_document_step_key', ['documentId', 'step'], {
  unique: true,
  where: 'document_id IS NOT NULL',
})
@Check('check_steps_step_check', sqlIn('step', CHECK_STEPS))
@Check('check_steps_outcome_check', sqlIn('outcome', CHECK_OUTCOMES))
export class CheckStep {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'check_steps_organization_id_fkey' })
  organizationId: OrganizationId;
  @Column({ name: 'case_id', type: 'uuid' })
  @ForeignKey(() => VerificationCase, { name: 'check_steps_case_id_fkey' })
  caseId: string;
  @Column({ name: 'document_id', type: 'uuid', nullable: true }) documentId: string | null;
  @Column({ name: 'provider_session_id', type: 'uuid', nullable: true })
  @ForeignKey(() => ProviderSession, { name: 'check_steps_provider_session_id_fkey' })
  providerSessionId: string | null;
  @Column({ type: 'text' }) step: CheckStepName;
  @Column({ type: 'text' }) outcome: CheckOutcome;
  /** A stable rule id, e.g. `ICAO9303.check-digit.document-number`. */
  @Column({ type: 'text' }) rule: string;
  @Column({ type: 'jsonb' }) evidence: CheckEvidence;
  @Column({ type: 'text', nullable: true }) detail: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
