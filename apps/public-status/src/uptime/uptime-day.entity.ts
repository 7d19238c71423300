import { Column, Entity, ForeignKey, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { Business } from '../catalog/business.entity';
import { StatusResource } from '../catalog/status-resource.entity';
import type { BusinessId } from '../tenancy/business-id';

/**
 * A resource's seconds per state on one UTC day, rolled up from its state history. Append-only (a
 * trigger refuses UPDATE and DELETE): a correction is revision n+1 of the same day, and readers take
 * each day's highest revision. Hash-chained per resource in insertion order: `hash` =
 * sha256(`prev_hash` || canonical JSON of { day, revision, seconds, computedAt }).
 */
@Entity({ name: 'uptime_daily' })
@Unique('uptime_daily_resource_day_revision_key', ['resourceId', 'day', 'revision'])
export class UptimeDay {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' }) id: string;
  @Column({ name: 'business_id', type: 'text' })
  @ForeignKey(() => Business, { name: 'uptime_daily_business_id_fkey' })
  businessId: BusinessId;
  @Column({ name: 'resource_id', type: 'uuid' })
  @ForeignKey(() => StatusResource, { name: 'uptime_daily_resource_id_fkey' })
  resourceId: string;
  @Column({ type: 'date' }) day: string;
  @Column({ type: 'integer' }) revision: number;
  @Column({ name: 'operational_s', type: 'integer' }) operationalS: number;
  @Column({ name: 'degraded_s', type: 'integer' }) degradedS: number;
  @Column({ name: 'partial_s', type: 'integer' }) partialS: number;
  @Column({ name: 'major_s', type: 'integer' }) majorS: number;
  @Column({ name: 'maintenance_s', type: 'integer' }) maintenanceS: number;
  @Column({ name: 'computed_at', type: 'timestamptz' }) computedAt: Date;
  @Column({ name: 'prev_hash', type: 'text' }) prevHash: string;
  @Column({ type: 'text' }) hash: string;
}
