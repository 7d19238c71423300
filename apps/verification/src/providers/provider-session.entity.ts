import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';
import { VerificationCase } from '../cases/verification-case.entity';
import {
  PROVIDER_RESULTS,
  PROVIDER_SESSION_KINDS,
  PROVIDER_SESSION_STATUSES,
  type ProviderResult,
  type ProviderSessionKind,
  type ProviderSessionStatus,
} from './identity-provider';

const sqlIn = (column: string, values: readonly string[]) =>
  `${column} IN (${values.map((v) => `'${v}'`).join(', ')})`;

/** A KYC (individual) or KYB (business) session with the identity provider (docs/verification/checks.md). */
@Entity({ name: 'provider_sessions' })
@Index('provider_sessions_case_idx', ['organizationId', 'caseId', 'createdAt'])
@Check('provider_sessions_kind_check', sqlIn('kind', PROVIDER_SESSION_KINDS))
@Check('provider_sessions_status_check', sqlIn('status', PROVIDER_SESSION_STATUSES))
@Check('provider_sessions_result_check', `result IS NULL OR ${sqlIn('result', PROVIDER_RESULTS)}`)
export class ProviderSession {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'provider_sessions_organization_id_fkey' })
  organizationId: OrganizationId;
  @Column({ name: 'case_id', type: 'uuid' })
  @ForeignKey(() => VerificationCase, { name: 'provider_sessions_case_id_fkey' })
  caseId: string;
  @Column({ type: 'text' }) kind: ProviderSessionKind;
  /** The provider that ran it (`sandbox` for now). */
  @Column({ type: 'text' }) provider: string;
  @Column({ type: 'text' }) status: ProviderSessionStatus;
  @Column({ type: 'text', nullable: true }) result: ProviderResult | null;
  /** The provider's per-check answers (e.g. document, facial similarity, watchlist). */
  @Column({ type: 'jsonb' }) breakdown: Record<string, unknown>;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true }) completedAt: Date | null;
}
