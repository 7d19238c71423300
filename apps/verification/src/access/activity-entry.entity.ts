import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';

/**
 * One authenticated write (POST, PUT, PATCH, DELETE) as answered: who (the key id, never a secret),
 * how (`api-key` or `oauth`), the route pattern (never the raw URL with its query), the target's id,
 * the status and the request id. Written in batches after the response.
 */
@Entity({ name: 'activity_log' })
@Index('activity_log_org_at_idx', ['organizationId', 'at'])
export class ActivityEntry {
  @PrimaryGeneratedColumn({ type: 'bigint' }) id: string;
  @Column({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'activity_log_organization_id_fkey' })
  organizationId: OrganizationId;
  @Column({ type: 'timestamptz' }) at: Date;
  @Column({ type: 'text' }) actor: string;
  @Column({ name: 'actor_kind', type: 'text' }) actorKind: string;
  @Column({ type: 'text' }) method: string;
  @Column({ type: 'text' }) route: string;
  @Column({ name: 'target_id', type: 'text', nullable: true }) targetId: string | null;
  @Column({ type: 'integer' }) status: number;
  @Column({ name: 'request_id', type: 'text', nullable: true }) requestId: string | null;
}
