import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';

/**
 * When a partner key was last used, to the minute: each replica writes it at most once a minute per key,
 * in the same statement as the key's request log lines (KeyRequestLogWriter), never per request.
 */
@Entity({ name: 'api_key_usage' })
export class KeyUsage {
  @PrimaryColumn({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'api_key_usage_organization_id_fkey' })
  organizationId: OrganizationId;
  @PrimaryColumn({ name: 'key_id', type: 'text' }) keyId: string;
  @Column({ name: 'last_used_at', type: 'timestamptz' }) lastUsedAt: Date;
}
