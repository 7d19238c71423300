import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';

/**
 * One Idempotency-Key of an organization, in the schema of the service that uses it (the DataSource's
 * schema; created by `idempotencyKeysMigration`): the SHA-256 of the request it came with (method,
 * route, canonical body and query) and the answer the first request got (status and the JSON the
 * service stores: the answer's value, or a reference to it when the answer holds a secret), written in
 * the transaction of the operation itself, so a stored answer exists exactly when the operation
 * committed. Kept until `expires_at` (at least 24 hours).
 */
@Entity({ name: 'idempotency_keys' })
@Index('idempotency_keys_org_expires_idx', ['organizationId', 'expiresAt'])
@Check('idempotency_keys_status_check', 'status_code BETWEEN 200 AND 299')
export class IdempotencyKey {
  @PrimaryColumn({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'idempotency_keys_organization_id_fkey' })
  organizationId: OrganizationId;
  @PrimaryColumn({ type: 'text' }) key: string;
  @Column({ name: 'request_hash', type: 'text' }) requestHash: string;
  /** The route the key was used on (`POST /Loans/MakePayment`), for people reading the table. */
  @Column({ type: 'text' }) route: string;
  @Column({ name: 'status_code', type: 'integer' }) statusCode: number;
  /** What the service stored of the first answer, exactly as it was serialised. */
  @Column({ name: 'response_body', type: 'text' }) responseBody: string;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt: Date;
}
