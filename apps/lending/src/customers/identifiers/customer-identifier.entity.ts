import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  ForeignKey,
  Index,
  PrimaryGeneratedColumn,
  Unique,
} from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';
import { Customer } from '../customer.entity';
import { sqlIn } from '../../common/columns';
import { IDENTIFIER_TYPES, type IdentifierType } from './identifier-rules';

/**
 * A customer's national id, passport or tax id, normalised (identifier-rules.ts). One value of a type
 * and country belongs to one customer of the organization.
 */
@Entity({ name: 'customer_identifiers' })
@ForeignKey(() => Customer, ['organizationId', 'customerId'], ['organizationId', 'id'], {
  name: 'customer_identifiers_customer_fkey',
})
@Unique('customer_identifiers_value_key', ['organizationId', 'type', 'country', 'value'])
@Index('customer_identifiers_customer_idx', ['organizationId', 'customerId'])
@Index('customer_identifiers_org_value_idx', ['organizationId', 'value'])
@Check('customer_identifiers_type_check', sqlIn('type', IDENTIFIER_TYPES))
@Check('customer_identifiers_country_check', `country ~ '^[A-Z]{2}$'`)
export class CustomerIdentifier {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'customer_identifiers_organization_id_fkey' })
  organizationId: OrganizationId;
  @Column({ name: 'customer_id', type: 'uuid' }) customerId: string;
  @Column({ type: 'text' }) type: IdentifierType;
  @Column({ type: 'text' }) country: string;
  @Column({ type: 'text' }) value: string;
  /** Which rule accepted the value, e.g. `KZ_IIN`. */
  @Column({ type: 'text' }) scheme: string;
  @Column({ name: 'issue_date', type: 'date', nullable: true }) issueDate: string | null;
  @Column({ name: 'expiry_date', type: 'date', nullable: true }) expiryDate: string | null;
  @Column({ name: 'issued_by', type: 'text', nullable: true }) issuedBy: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
