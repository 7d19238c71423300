import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  ForeignKey,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';

export const CUSTOMER_KINDS = ['individual', 'business'] as const;
export type CustomerKind = (typeof CUSTOMER_KINDS)[number];

/** A lender's customer (a borrower): the row applications and loans refer to. */
@Entity({ name: 'customers' })
@Index('customers_org_created_idx', ['organizationId', 'createdAt'])
@Check('customers_kind_check', `kind IN ('individual', 'business')`)
export class Customer {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'customers_organization_id_fkey' })
  organizationId: OrganizationId;
  @Column({ type: 'text' }) kind: CustomerKind;
  @Column({ type: 'text', default: 'active' }) status: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
