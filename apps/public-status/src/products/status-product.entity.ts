import { Check, Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

export const COMPONENT_STATES = [
  'operational',
  'degraded_performance',
  'partial_outage',
  'major_outage',
  'under_maintenance',
] as const;

/**
 * A product shown on the public status page. Publication is decided by the business per product; the
 * public-status issue adds per-business and per-resource publication and uptime from health reports.
 */
@Entity({ name: 'products' })
@Check(
  'products_state_check',
  `state IN ('operational', 'degraded_performance', 'partial_outage', 'major_outage', 'under_maintenance')`,
)
export class StatusProduct {
  @PrimaryColumn({ type: 'text' }) id: string;
  @Column({ type: 'text' }) name: string;
  @Column({ type: 'boolean', default: false }) published: boolean;
  @Column({ type: 'text', default: 'operational' }) state: (typeof COMPONENT_STATES)[number];
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
