import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';

/** A loan application. The foundation stores the shell; the applications issue adds its workflow. */
@Entity({ name: 'applications' })
@Index('applications_org_created_idx', ['organizationId', 'createdAt'])
export class LoanApplication {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'applications_organization_id_fkey' })
  organizationId: OrganizationId;
  @Column({ type: 'text' }) status: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
