import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  ForeignKey,
  Index,
  PrimaryGeneratedColumn,
  Unique,
  UpdateDateColumn,
} from 'typeorm';
import { Account } from '../tenancy/account.entity';
import { Product } from '../tenancy/product.entity';
import type { AccountId, ProductId } from '../tenancy/tenant-ids';

export const EVENT_STATUSES = ['confirmed', 'tentative', 'cancelled'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];
export const EVENT_VISIBILITIES = ['default', 'public', 'private', 'confidential'] as const;
export type EventVisibility = (typeof EVENT_VISIBILITIES)[number];
/** iCalendar TRANSP: a transparent event (a reminder, a tentative hold someone chose to ignore) blocks no time. */
export const EVENT_TRANSPARENCIES = ['opaque', 'transparent'] as const;
export type EventTransparency = (typeof EVENT_TRANSPARENCIES)[number];
export const RESOURCE_TYPES = ['room', 'equipment'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

/** The conference room attached to an event (decision 0017); the API shows it as `conference`. */
export interface EventConference {
  provider: string;
  url: string;
  room_id: string;
  created_at: string;
}

/** An invited person or guest as the event responses show it (iCalendar ATTENDEE with PARTSTAT). */
export interface EventAttendeeView {
  kind: 'person' | 'email';
  id?: string;
  email?: string;
  role: 'REQ-PARTICIPANT' | 'OPT-PARTICIPANT';
  partstat: 'NEEDS-ACTION' | 'ACCEPTED' | 'DECLINED' | 'TENTATIVE';
  responded_at: string | null;
  comment: string | null;
}

/** A time as the API takes and shows it (`EventTimeDto`), as stored inside `recurrence_overrides`. */
export interface StoredTime {
  date_time?: string;
  time_zone?: string;
  date?: string;
}

/**
 * One modified or cancelled occurrence of a series, keyed by RECURRENCE-ID (its original start: an
 * instant, or the date of an all-day series), stored with the series as the API shows it.
 */
export interface StoredOverride {
  recurrence_id: string;
  cancelled?: true;
  start?: StoredTime;
  end?: StoredTime;
}

export interface EventResource {
  type: ResourceType;
  id: string;
}

/**
 * A schedule entry reported by a product. Identity: (product_id, entity_type, entity_id) within an
 * account; `version` is the optimistic-concurrency counter and the CalDAV ETag.
 * `starts_at`/`ends_at` are instants for every event (all-day ones at midnight of their time zone, UTC
 * when none), so overlap queries need one index.
 */
@Entity({ name: 'events' })
@Unique('events_identity_uq', ['accountId', 'productId', 'entityType', 'entityId'])
@Index('events_account_time_idx', ['accountId', 'startsAt', 'endsAt'])
// Overlaps bound `ends_at` too: the planner walks the narrower bound (migration EventsEndTimeIndex).
@Index('events_account_end_idx', ['accountId', 'endsAt', 'startsAt'])
// GIN indexes for array overlap (`&&`): TypeORM cannot declare their method, so it is told to leave them be.
// GiST (account, period) for free/busy overlaps (migration EventsPeriodIndex).
@Index('events_account_period_idx', { synchronize: false })
@Index('events_people_idx', { synchronize: false })
@Index('events_resources_idx', { synchronize: false })
// Recurring masters by start, for ranges their series may reach into (migration RecurrenceOverrides).
@Index('events_recurring_idx', { synchronize: false })
// A person's CalDAV resources: names and UIDs unique per calendar (partial; migration Caldav).
@Index('events_dav_name_uq', { synchronize: false })
@Index('events_dav_uid_uq', { synchronize: false })
@Check(
  'events_dav_lengths_ck',
  `char_length(dav_calendar) <= 64 AND char_length(dav_name) <= 255 AND char_length(ical_uid) <= 255
      AND octet_length(ical) <= 1048576`,
)
@Check('events_version_check', 'version >= 1')
@Check('events_status_check', `status IN ('confirmed', 'tentative', 'cancelled')`)
@Check('events_visibility_check', `visibility IN ('default', 'public', 'private', 'confidential')`)
@Check('events_transparency_check', `transparency IN ('opaque', 'transparent')`)
@Check('events_time_order_ck', 'ends_at IS NULL OR starts_at IS NULL OR ends_at >= starts_at')
// Lengths in code points, matching event-limits.ts (migration TextLengthChecks).
@Check(
  'events_text_lengths_ck',
  `char_length(product_id) <= 64 AND char_length(entity_type) <= 64 AND char_length(entity_id) <= 256
   AND char_length(title) <= 500 AND char_length(description) <= 10000
   AND char_length(location) <= 1000 AND char_length(owner_person_id) <= 128
   AND char_length(time_zone) <= 64`,
)
export class CalendarEvent {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'account_id', type: 'text' })
  @ForeignKey(() => Account, { name: 'events_account_id_fkey' })
  accountId: AccountId;
  @Column({ name: 'product_id', type: 'text' })
  @ForeignKey(() => Product, { name: 'events_product_id_fkey' })
  productId: ProductId;
  @Column({ name: 'entity_type', type: 'text' }) entityType: string;
  @Column({ name: 'entity_id', type: 'text' }) entityId: string;
  @Column({ type: 'integer' }) version: number;
  @Column({ type: 'text', nullable: true }) title: string | null;
  @Column({ type: 'text', nullable: true }) description: string | null;
  @Column({ type: 'text', nullable: true }) location: string | null;
  @Column({ name: 'all_day', type: 'boolean', default: false }) allDay: boolean;
  @Column({ name: 'starts_at', type: 'timestamptz', nullable: true }) startsAt: Date | null;
  @Column({ name: 'ends_at', type: 'timestamptz', nullable: true }) endsAt: Date | null;
  @Column({ name: 'start_date', type: 'date', nullable: true }) startDate: string | null;
  @Column({ name: 'end_date', type: 'date', nullable: true }) endDate: string | null;
  @Column({ name: 'time_zone', type: 'text', nullable: true }) timeZone: string | null;
  @Column({ type: 'text', default: 'confirmed' }) status: EventStatus;
  @Column({ type: 'text', default: 'default' }) visibility: EventVisibility;
  @Column({ type: 'text', default: 'opaque' }) transparency: EventTransparency;
  @Column({ name: 'owner_person_id', type: 'text', nullable: true }) ownerPersonId: string | null;
  @Column({ name: 'assignee_ids', type: 'text', array: true, default: () => "'{}'" }) assigneeIds: string[];
  /** Owner and assignees together, for person and team queries. */
  @Column({ name: 'person_ids', type: 'text', array: true, default: () => "'{}'" }) personIds: string[];
  @Column({ type: 'jsonb', default: () => "'[]'" }) resources: EventResource[];
  @Column({ name: 'resource_ids', type: 'text', array: true, default: () => "'{}'" }) resourceIds: string[];
  @Column({ type: 'text', array: true, default: () => "'{}'" }) recurrence: string[];
  /** Moved or cancelled occurrences of the series (migration RecurrenceOverrides). */
  @Column({ name: 'recurrence_overrides', type: 'jsonb', default: () => "'[]'" })
  recurrenceOverrides: StoredOverride[];
  /** End of a bounded series' last occurrence, null when unbounded or not recurring (migration Caldav). */
  @Column({ name: 'series_ends_at', type: 'timestamptz', nullable: true }) seriesEndsAt: Date | null;
  @Column({ type: 'jsonb', default: () => "'{}'" }) metadata: Record<string, string>;
  /** The room link; null until `attachConference` (migration ConferenceAndAttendees). */
  @Column({ type: 'jsonb', nullable: true }) conference: EventConference | null;
  /** `event_attendees` of the event as shown, written by the same statement as those rows. */
  @Column({ type: 'jsonb', default: () => "'[]'" }) attendees: EventAttendeeView[];
  /** CalDAV resource of a person's own event (product `personal`; migration Caldav): calendar slug, resource name, UID. */
  @Column({ name: 'dav_calendar', type: 'text', nullable: true }) davCalendar: string | null;
  @Column({ name: 'dav_name', type: 'text', nullable: true }) davName: string | null;
  @Column({ name: 'ical_uid', type: 'text', nullable: true }) icalUid: string | null;
  /** The client's iCalendar text, kept verbatim and served back as stored (VALARM, X- properties). */
  @Column({ type: 'text', nullable: true }) ical: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
