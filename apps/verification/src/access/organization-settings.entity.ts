import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';

/** An organization's settings; a missing row means the defaults (no IP restriction). */
@Entity({ name: 'organization_settings' })
export class OrganizationSettings {
  @PrimaryColumn({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'organization_settings_organization_id_fkey' })
  organizationId: OrganizationId;
  /** Normalised CIDR blocks (`10.0.0.0/8`, `2001:db8::/32`); empty = no restriction. */
  @Column({ name: 'ip_allowlist', type: 'text', array: true, default: () => "'{}'" }) ipAllowlist: string[];
  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' }) updatedAt: Date;
}
