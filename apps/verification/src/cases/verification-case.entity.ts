import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';

/** A verification case (statuses: case-statuses.ts). */
@Entity({ name: 'verification_cases' })
@Index('cases_org_ref_idx', ['organizationId', 'externalReferenceId'])
@Index('cases_org_created_idx', ['organizationId', 'createdAt'])
export class VerificationCase {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'verification_cases_organization_id_fkey' })
  organizationId: OrganizationId;
  @Column({ type: 'text' }) status: string;
  @Column({ name: 'external_reference_id', type: 'text' }) externalReferenceId: string;
  @Column({ name: 'applicant_type', type: 'text' }) applicantType: string;
  @Column({ name: 'applicant_country_code', type: 'text' }) applicantCountryCode: string;
  @Column({ name: 'report_country_code', type: 'text' }) reportCountryCode: string;
  /** The applicant's name as the caller knows it: what the document checks compare the document with. */
  @Column({ name: 'applicant_name', type: 'text', nullable: true }) applicantName: string | null;
  /** An individual's date of birth, YYYY-MM-DD. */
  @Column({ name: 'applicant_birth_date', type: 'date', nullable: true }) applicantBirthDate: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' }) updatedAt: Date;
}
