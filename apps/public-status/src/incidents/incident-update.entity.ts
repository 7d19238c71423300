import { Check, Column, Entity, ForeignKey, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { Business } from '../catalog/business.entity';
import { INCIDENT_STATUSES, sqlIn, type IncidentStatus } from '../status/states';
import type { BusinessId } from '../tenancy/business-id';
import { Incident } from './incident.entity';

/**
 * An incident's updates: append-only (a trigger refuses UPDATE and DELETE) and hash-chained per
 * incident: `hash` = sha256(`prev_hash` || canonical JSON of { incident, seq, status, body, createdAt }),
 * every field of which is public, so anyone can recompute the chain from the public payloads.
 */
@Entity({ name: 'incident_updates' })
@Unique('incident_updates_incident_seq_key', ['incidentId', 'seq'])
@Check('incident_updates_status_check', sqlIn('status', INCIDENT_STATUSES))
export class IncidentUpdate {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' }) id: string;
  @Column({ name: 'business_id', type: 'text' })
  @ForeignKey(() => Business, { name: 'incident_updates_business_id_fkey' })
  businessId: BusinessId;
  @Column({ name: 'incident_id', type: 'text' })
  @ForeignKey(() => Incident, { name: 'incident_updates_incident_id_fkey' })
  incidentId: string;
  @Column({ type: 'integer' }) seq: number;
  @Column({ type: 'text' }) status: IncidentStatus;
  @Column({ type: 'text' }) body: string;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'prev_hash', type: 'text' }) prevHash: string;
  @Column({ type: 'text' }) hash: string;
}
