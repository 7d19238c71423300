import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';

/**
 * An OAuth access token (client credentials): only its SHA-256 (hex) is stored. It carries a subset of
 * its key's scopes and dies with the key (revoked or past a reissue's overlap), checked on every use.
 */
@Entity({ name: 'oauth_tokens' })
@Index('oauth_tokens_org_expires_idx', ['organizationId', 'expiresAt'])
export class OAuthToken {
  @PrimaryColumn({ name: 'token_hash', type: 'text' }) tokenHash: string;
  @Column({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'oauth_tokens_organization_id_fkey' })
  organizationId: OrganizationId;
  /** The public id of the API key whose secret was presented. */
  @Column({ name: 'key_id', type: 'text' }) keyId: string;
  @Column({ type: 'text', array: true }) scopes: string[];
  @Column({ name: 'issued_at', type: 'timestamptz' }) issuedAt: Date;
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt: Date;
}
