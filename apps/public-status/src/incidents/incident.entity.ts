import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { Business } from '../catalog/business.entity';
import {
  INCIDENT_IMPACTS,
  INCIDENT_ORIGINS,
  INCIDENT_STATUSES,
  sqlIn,
  type IncidentImpact,
  type IncidentOrigin,
  type IncidentStatus,
} from '../status/states';
import type { BusinessId } from '../tenancy/business-id';

/**
 * An incident. `id` is a random public code (like Statuspage's), so it may appear in public payloads;
 * `resource_ids` are the affected resources (internal ids, never shown: the public sees their slugs).
 */
@Entity({ name: 'incidents' })
@Index('incidents_business_created_idx', ['businessId', 'createdAt'])
@Check('incidents_status_check', sqlIn('status', INCIDENT_STATUSES))
@Check('incidents_impact_check', sqlIn('impact', INCIDENT_IMPACTS))
@Check('incidents_origin_check', sqlIn('origin', INCIDENT_ORIGINS))
@Index('incidents_open_automatic_idx', ['businessId'], {
  where: "origin = 'automatic' AND status <> 'resolved'",
})
export class Incident {
  @PrimaryColumn({ type: 'text' }) id: string;
  @Column({ name: 'business_id', type: 'text' })
  @ForeignKey(() => Business, { name: 'incidents_business_id_fkey' })
  businessId: BusinessId;
  @Column({ type: 'text' }) name: string;
  @Column({ type: 'text' }) impact: IncidentImpact;
  @Column({ type: 'text' }) status: IncidentStatus;
  @Column({ name: 'resource_ids', type: 'uuid', array: true, default: () => "'{}'" }) resourceIds: string[];
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
  @Column({ name: 'resolved_at', type: 'timestamptz', nullable: true }) resolvedAt: Date | null;
  /** `automatic`: opened by a resource's automated outage (decision 0023), resolved by its recovery. */
  @Column({ type: 'text', default: 'staff' }) origin: IncidentOrigin;
}
