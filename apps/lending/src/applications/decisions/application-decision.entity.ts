import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';
import { LoanApplication } from '../application.entity';
import { bigintNumber, sqlIn } from '../../common/columns';
import { DECIDERS, DECISION_OUTCOMES, type Decider, type DecisionOutcome } from './decision-reasons';

/** An underwriting decision (append-only): by a person through MakeDecision, or by the rules. */
@Entity({ name: 'application_decisions' })
@ForeignKey(() => LoanApplication, ['organizationId', 'applicationId'], ['organizationId', 'id'], {
  name: 'application_decisions_application_fkey',
})
@Index('application_decisions_app_created_idx', ['applicationId', 'createdAt'])
@Check('application_decisions_outcome_check', sqlIn('outcome', DECISION_OUTCOMES))
@Check('application_decisions_decided_by_check', sqlIn('decided_by', DECIDERS))
export class ApplicationDecision {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'application_decisions_organization_id_fkey' })
  organizationId: OrganizationId;
  @Column({ name: 'application_id', type: 'uuid' })
  applicationId: string;
  @Column({ type: 'text' }) outcome: DecisionOutcome;
  @Column({ name: 'decided_by', type: 'text' }) decidedBy: Decider;
  /** The person's key (MakeDecision), or the key whose RunChecks let the rules decide. */
  @Column({ name: 'key_id', type: 'text', nullable: true }) keyId: string | null;
  @Column({ type: 'text', array: true, default: () => "'{}'" }) reasons: string[];
  @Column({ type: 'text', nullable: true }) note: string | null;
  @Column({ name: 'offered_amount', type: 'bigint', nullable: true, transformer: bigintNumber })
  offeredAmount: number | null;
  @Column({ name: 'offered_currency', type: 'text', nullable: true }) offeredCurrency: string | null;
  @Column({ name: 'offered_term_months', type: 'integer', nullable: true }) offeredTermMonths: number | null;
  /** Annual interest rate in basis points (2450 = 24.50%). */
  @Column({ name: 'offered_rate_bps', type: 'integer', nullable: true }) offeredRateBps: number | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
