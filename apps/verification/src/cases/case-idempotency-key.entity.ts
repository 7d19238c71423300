import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';
import { VerificationCase } from './verification-case.entity';

/**
 * An Idempotency-Key of case creation, per organization, with the SHA-256 of the request it came with
 * and the case it created (the stored answer). Kept until `expires_at` (at least 24 hours).
 */
@Entity({ name: 'case_idempotency_keys' })
@Index('case_idempotency_keys_expires_idx', ['expiresAt'])
export class CaseIdempotencyKey {
  @PrimaryColumn({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'case_idempotency_keys_organization_id_fkey' })
  organizationId: OrganizationId;
  @PrimaryColumn({ type: 'text' }) key: string;
  @Column({ name: 'request_hash', type: 'text' }) requestHash: string;
  @Column({ name: 'case_id', type: 'uuid' })
  @ForeignKey(() => VerificationCase, { name: 'case_idempotency_keys_case_id_fkey' })
  caseId: string;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt: Date;
}
