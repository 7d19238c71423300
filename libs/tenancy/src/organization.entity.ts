import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { OrganizationId } from './tenant-id';

/** A tenant of lending or verification: the organization named by the tenant header. */
@Entity({ name: 'organizations' })
export class Organization {
  @PrimaryColumn({ type: 'text' }) id: OrganizationId;
  @Column({ type: 'text' }) name: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
