import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';

/**
 * One call of a partner key, as its organization sees it in `GetKeyRequests`: never a header, a body,
 * a query string or a secret. Written in batches off the request path (KeyRequestLogWriter); kept
 * `LENDING_REQUEST_LOG_RETENTION_DAYS`.
 */
@Entity({ name: 'api_key_requests' })
@Index('api_key_requests_key_idx', ['organizationId', 'keyId', 'at', 'id'])
@Index('api_key_requests_org_at_idx', ['organizationId', 'at'])
export class KeyRequestRecord {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' }) id: string;
  @Column({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'api_key_requests_organization_id_fkey' })
  organizationId: OrganizationId;
  @Column({ name: 'key_id', type: 'text' }) keyId: string;
  /** When the answer was sent. */
  @Column({ type: 'timestamptz' }) at: Date;
  @Column({ type: 'text' }) method: string;
  /** The path without its query string. */
  @Column({ type: 'text' }) path: string;
  @Column({ type: 'integer' }) status: number;
  @Column({ name: 'duration_ms', type: 'integer' }) durationMs: number;
  @Column({ name: 'request_id', type: 'text' }) requestId: string;
}
