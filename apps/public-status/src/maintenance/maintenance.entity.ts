import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { Business } from '../catalog/business.entity';
import { MAINTENANCE_STATUSES, sqlIn, type MaintenanceStatus } from '../status/states';
import type { BusinessId } from '../tenancy/business-id';

/** A scheduled maintenance window; `id` is a random public code, like an incident's. */
@Entity({ name: 'maintenances' })
@Index('maintenances_business_scheduled_idx', ['businessId', 'scheduledFor'])
@Check('maintenances_status_check', sqlIn('status', MAINTENANCE_STATUSES))
export class Maintenance {
  @PrimaryColumn({ type: 'text' }) id: string;
  @Column({ name: 'business_id', type: 'text' })
  @ForeignKey(() => Business, { name: 'maintenances_business_id_fkey' })
  businessId: BusinessId;
  @Column({ type: 'text' }) name: string;
  @Column({ type: 'text', default: '' }) body: string;
  @Column({ type: 'text' }) status: MaintenanceStatus;
  @Column({ name: 'resource_ids', type: 'uuid', array: true, default: () => "'{}'" }) resourceIds: string[];
  @Column({ name: 'scheduled_for', type: 'timestamptz' }) scheduledFor: Date;
  @Column({ name: 'scheduled_until', type: 'timestamptz' }) scheduledUntil: Date;
  @Column({ name: 'started_at', type: 'timestamptz', nullable: true }) startedAt: Date | null;
  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true }) completedAt: Date | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
