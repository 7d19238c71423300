import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Business } from '../catalog/business.entity';
import { StatusResource } from '../catalog/status-resource.entity';
import { COMPONENT_STATES, STATE_SOURCES, sqlIn, type ComponentState, type StateSource } from './states';
import type { BusinessId } from '../tenancy/business-id';

/**
 * Append-only: a row is inserted when a resource enters a state, and only its `ended_at` is ever set,
 * once, when the next state begins (a trigger refuses anything else). At most one open row per
 * resource (a partial unique index the migration creates).
 */
@Entity({ name: 'state_history' })
@Index('state_history_resource_started_idx', ['resourceId', 'startedAt'])
@Index('state_history_open_idx', { synchronize: false })
@Check('state_history_state_check', sqlIn('state', COMPONENT_STATES))
@Check('state_history_source_check', sqlIn('source', STATE_SOURCES))
export class StateHistoryRow {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' }) id: string;
  @Column({ name: 'business_id', type: 'text' })
  @ForeignKey(() => Business, { name: 'state_history_business_id_fkey' })
  businessId: BusinessId;
  @Column({ name: 'resource_id', type: 'uuid' })
  @ForeignKey(() => StatusResource, { name: 'state_history_resource_id_fkey' })
  resourceId: string;
  @Column({ type: 'text' }) state: ComponentState;
  @Column({ type: 'text' }) source: StateSource;
  @Column({ type: 'text', default: '' }) note: string;
  @Column({ name: 'started_at', type: 'timestamptz' }) startedAt: Date;
  @Column({ name: 'ended_at', type: 'timestamptz', nullable: true }) endedAt: Date | null;
}
