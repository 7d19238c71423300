import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';
import { VerificationCase } from '../cases/verification-case.entity';
import {
  RECOMMENDATIONS,
  sqlIn,
  type Authenticity,
  type IdentityMatch,
  type Recommendation,
  type SummaryFlag,
} from './summary-types';

/**
 * One generated summary of a case (docs/verification/summary.md). Every generation is a new version
 * (1, 2, ... per case); earlier versions are kept, so an issued report keeps pointing at what it showed.
 */
@Entity({ name: 'case_summaries' })
@Index('case_summaries_case_version_key', ['caseId', 'version'], { unique: true })
@Index('case_summaries_organization_case_idx', ['organizationId', 'caseId', 'version'])
@Check('case_summaries_recommendation_check', sqlIn('recommendation', RECOMMENDATIONS))
@Check('case_summaries_version_check', 'version >= 1')
export class CaseSummary {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'case_summaries_organization_id_fkey' })
  organizationId: OrganizationId;
  @Column({ name: 'case_id', type: 'uuid' })
  @ForeignKey(() => VerificationCase, { name: 'case_summaries_case_id_fkey' })
  caseId: string;
  @Column({ type: 'int' }) version: number;
  @Column({ name: 'generated_at', type: 'timestamptz' }) generatedAt: Date;
  @Column({ name: 'identity_match', type: 'jsonb' }) identityMatch: IdentityMatch;
  @Column({ type: 'jsonb' }) authenticity: Authenticity;
  @Column({ type: 'jsonb' }) flags: SummaryFlag[];
  @Column({ type: 'text' }) recommendation: Recommendation;
  /** The SUMMARY_RULES_VERSION that produced it. */
  @Column({ name: 'rules_version', type: 'text' }) rulesVersion: string;
}
