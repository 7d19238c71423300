import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A partner integration's key (`X-Api-Key`): stored as a hash, limited to its scopes. */
@Entity({ name: 'partner_keys' })
export class PartnerKey {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'key_id', type: 'text', unique: true }) keyId: string;
  @Column({ name: 'organization_id', type: 'text' }) organizationId: string;
  @Column({ type: 'text' }) hash: string;
  @Column({ type: 'text' }) label: string;
  @Column({ type: 'text', array: true }) scopes: string[];
  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true }) revokedAt: Date | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
