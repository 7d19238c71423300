import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  ForeignKey,
  Index,
  PrimaryGeneratedColumn,
  Unique,
  UpdateDateColumn,
} from 'typeorm';
import { SUPPORTED_LANGUAGES, type Language } from '@platform/i18n';
import { Organization, type OrganizationId } from '@platform/tenancy';
import { sqlIn } from '../common/columns';
import { CUSTOMER_STATUSES, type CustomerStatus } from './customer-statuses';

export const CUSTOMER_KINDS = ['individual', 'business'] as const;
export type CustomerKind = (typeof CUSTOMER_KINDS)[number];

export const GENDERS = ['female', 'male', 'other', 'unspecified'] as const;
export type Gender = (typeof GENDERS)[number];

/** A postal address as the customer gave it; the country is ISO 3166-1 alpha-2. */
export interface CustomerAddress {
  country: string;
  region?: string;
  city?: string;
  line1: string;
  line2?: string;
  postalCode?: string;
}

/**
 * A lender's customer (a borrower): the row applications and loans refer to, with its profile
 * (migration 1763860000000). The profile columns of the other kind stay null; `kind` never changes.
 * `(organization_id, id)` is unique so that the customer's identifiers, documents, consents and bank
 * accounts can reference it with their organization: a child row of another organization's customer
 * cannot exist even where a query forgot its filter.
 */
@Entity({ name: 'customers' })
@Index('customers_org_created_idx', ['organizationId', 'createdAt'])
@Index('customers_org_external_id_key', ['organizationId', 'externalId'], {
  unique: true,
  where: 'external_id IS NOT NULL',
})
@Unique('customers_organization_id_id_key', ['organizationId', 'id'])
@Check('customers_kind_check', `kind IN ('individual', 'business')`)
@Check('customers_status_check', sqlIn('status', CUSTOMER_STATUSES))
@Check('customers_gender_check', sqlIn('gender', GENDERS))
@Check('customers_preferred_language_check', sqlIn('preferred_language', SUPPORTED_LANGUAGES))
@Check('customers_version_check', 'version >= 1')
export class Customer {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'customers_organization_id_fkey' })
  organizationId: OrganizationId;
  @Column({ type: 'text' }) kind: CustomerKind;
  @Column({ type: 'text', default: 'active' }) status: CustomerStatus;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;

  /** The partner's own reference, unique in the organization when set. */
  @Column({ name: 'external_id', type: 'text', nullable: true }) externalId: string | null;
  /** The individual's full name or the business's legal name: what lists show and search reads. */
  @Column({ name: 'display_name', type: 'text', default: '' }) displayName: string;
  @Column({ name: 'first_name', type: 'text', nullable: true }) firstName: string | null;
  @Column({ name: 'last_name', type: 'text', nullable: true }) lastName: string | null;
  @Column({ name: 'middle_name', type: 'text', nullable: true }) middleName: string | null;
  @Column({ name: 'birth_date', type: 'date', nullable: true }) birthDate: string | null;
  @Column({ type: 'text', nullable: true }) gender: Gender | null;
  @Column({ type: 'text', nullable: true }) citizenship: string | null;
  @Column({ name: 'legal_name', type: 'text', nullable: true }) legalName: string | null;
  @Column({ name: 'trade_name', type: 'text', nullable: true }) tradeName: string | null;
  @Column({ name: 'registration_number', type: 'text', nullable: true }) registrationNumber: string | null;
  @Column({ name: 'registration_country', type: 'text', nullable: true }) registrationCountry: string | null;
  @Column({ name: 'registration_date', type: 'date', nullable: true }) registrationDate: string | null;
  @Column({ name: 'legal_form', type: 'text', nullable: true }) legalForm: string | null;
  @Column({ type: 'text', nullable: true }) email: string | null;
  @Column({ type: 'text', nullable: true }) phone: string | null;
  @Column({ name: 'preferred_language', type: 'text', nullable: true }) preferredLanguage: Language | null;
  @Column({ type: 'jsonb', nullable: true }) address: CustomerAddress | null;
  @Column({ name: 'status_reason', type: 'text', nullable: true }) statusReason: string | null;
  @Column({ name: 'status_changed_at', type: 'timestamptz', nullable: true }) statusChangedAt: Date | null;
  /** Bumped by every change; a write naming an older version is refused (409). */
  @Column({ type: 'integer', default: 1 }) version: number;
}
