import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';

export const EVENT_STATUSES = ['confirmed', 'tentative', 'cancelled'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

/**
 * A schedule entry reported by a product. Identity: (product_id, entity_type, entity_id) within an
 * account; `version` is the optimistic-concurrency counter and the CalDAV ETag.
 */
@Entity({ name: 'events' })
@Unique('events_identity_uq', ['accountId', 'productId', 'entityType', 'entityId'])
export class CalendarEvent {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'account_id', type: 'text' }) accountId: string;
  @Column({ name: 'product_id', type: 'text' }) productId: string;
  @Column({ name: 'entity_type', type: 'text' }) entityType: string;
  @Column({ name: 'entity_id', type: 'text' }) entityId: string;
  @Column({ type: 'integer' }) version: number;
  @Column({ type: 'text', nullable: true }) title: string | null;
  @Column({ name: 'starts_at', type: 'timestamptz', nullable: true }) startsAt: Date | null;
  @Column({ name: 'ends_at', type: 'timestamptz', nullable: true }) endsAt: Date | null;
  @Column({ type: 'text', default: 'confirmed' }) status: EventStatus;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
