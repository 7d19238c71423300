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
import { COMPONENT_STATES, sqlIn, type ComponentState, type StateSource } from '../status/states';
import type { BusinessId } from '../tenancy/business-id';
import { Business } from './business.entity';
import { StatusProduct } from './status-product.entity';

/**
 * A resource (Statuspage's component) of a product, with its current state; the state's history is in
 * `state_history`, written in the same transaction as every change here.
 */
@Entity({ name: 'resources' })
@Unique('resources_product_slug_key', ['productId', 'slug'])
@Index('resources_business_idx', ['businessId'])
@Index('resources_platform_service_idx', ['platformService'], { where: 'platform_service IS NOT NULL' })
@Check('resources_state_check', sqlIn('state', COMPONENT_STATES))
export class StatusResource {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'business_id', type: 'text' })
  @ForeignKey(() => Business, { name: 'resources_business_id_fkey' })
  businessId: BusinessId;
  @Column({ name: 'product_id', type: 'uuid' })
  @ForeignKey(() => StatusProduct, { name: 'resources_product_id_fkey' })
  productId: string;
  @Column({ type: 'text' }) slug: string;
  @Column({ type: 'text' }) name: string;
  @Column({ type: 'boolean', default: false }) published: boolean;
  @Column({ name: 'sort_order', type: 'integer', default: 0 }) sortOrder: number;
  @Column({ type: 'text', default: 'operational' }) state: ComponentState;
  @Column({ name: 'state_source', type: 'text', default: 'manual' }) stateSource: StateSource;
  @Column({ name: 'state_since', type: 'timestamptz', default: () => 'now()' }) stateSince: Date;
  /** The libs/registry app whose health reports set this resource's state (null: none). */
  @Column({ name: 'platform_service', type: 'text', nullable: true }) platformService: string | null;
  /** Whether an automated outage of this resource opens (and its recovery resolves) an incident. */
  @Column({ name: 'automatic_incidents', type: 'boolean', default: false }) automaticIncidents: boolean;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
