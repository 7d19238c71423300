import { Column, CreateDateColumn, Entity, ForeignKey, PrimaryGeneratedColumn, Unique } from 'typeorm';
import type { BusinessId } from '../tenancy/business-id';
import { Business } from './business.entity';

/** A product of a business; public only while it and its business are published. */
@Entity({ name: 'products' })
@Unique('products_business_slug_key', ['businessId', 'slug'])
export class StatusProduct {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'business_id', type: 'text' })
  @ForeignKey(() => Business, { name: 'products_business_id_fkey' })
  businessId: BusinessId;
  @Column({ type: 'text' }) slug: string;
  @Column({ type: 'text' }) name: string;
  @Column({ type: 'boolean', default: false }) published: boolean;
  @Column({ name: 'sort_order', type: 'integer', default: 0 }) sortOrder: number;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
