import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A loan application. The foundation stores the shell; the applications issue adds its workflow. */
@Entity({ name: 'applications' })
@Index('applications_org_created_idx', ['organizationId', 'createdAt'])
export class LoanApplication {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'organization_id', type: 'text' }) organizationId: string;
  @Column({ type: 'text' }) status: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
