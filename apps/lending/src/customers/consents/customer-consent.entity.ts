import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Organization, type OrganizationId } from '@platform/tenancy';
import { Customer } from '../customer.entity';
import { sqlIn } from '../../common/columns';
import {
  CONSENT_ACTIONS,
  CONSENT_CHANNELS,
  CONSENT_TYPES,
  type ConsentAction,
  type ConsentChannel,
  type ConsentType,
} from './consent-rules';

/**
 * One event of a customer's consent history: given or withdrawn, which text version, when (the
 * database's clock at the write) and how. Append-only: the tenant role may insert and read these rows,
 * never update or delete them (migration 1763863000000).
 */
@Entity({ name: 'customer_consents' })
@ForeignKey(() => Customer, ['organizationId', 'customerId'], ['organizationId', 'id'], {
  name: 'customer_consents_customer_fkey',
})
@Index('customer_consents_customer_idx', ['organizationId', 'customerId', 'type', 'recordedAt'])
@Check('customer_consents_type_check', sqlIn('type', CONSENT_TYPES))
@Check('customer_consents_action_check', sqlIn('action', CONSENT_ACTIONS))
@Check('customer_consents_channel_check', sqlIn('channel', CONSENT_CHANNELS))
export class CustomerConsent {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'organization_id', type: 'text' })
  @ForeignKey(() => Organization, { name: 'customer_consents_organization_id_fkey' })
  organizationId: OrganizationId;
  @Column({ name: 'customer_id', type: 'uuid' }) customerId: string;
  @Column({ type: 'text' }) type: ConsentType;
  @Column({ type: 'text' }) action: ConsentAction;
  @Column({ name: 'text_version', type: 'text' }) textVersion: string;
  @Column({ type: 'text' }) channel: ConsentChannel;
  @Column({ name: 'ip_address', type: 'inet', nullable: true }) ipAddress: string | null;
  @Column({ name: 'user_agent', type: 'text', nullable: true }) userAgent: string | null;
  /** The partner's proof: a signed form's id, an OTP session, a recording reference. */
  @Column({ type: 'text', nullable: true }) evidence: string | null;
  @Column({ name: 'recorded_at', type: 'timestamptz', default: () => 'now()' }) recordedAt: Date;
}
