import { Column, CreateDateColumn, Entity, PrimaryColumn, Unique } from 'typeorm';
import type { BusinessId } from '../tenancy/business-id';

/**
 * A business: the tenant (owner of management keys) and the top level of publication. `id` is the
 * tenant id the admin CLI created and never leaves the management API; `slug` is its public name
 * (a trigger fills it from the id when a row is created without one, as the tenancy admin does).
 */
@Entity({ name: 'businesses' })
@Unique('businesses_slug_key', ['slug'])
export class Business {
  @PrimaryColumn({ type: 'text' }) id: BusinessId;
  @Column({ type: 'text' }) name: string;
  @Column({ type: 'text' }) slug: string;
  @Column({ type: 'boolean', default: false }) published: boolean;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
