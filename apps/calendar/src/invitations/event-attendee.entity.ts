import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { CalendarEvent } from '../events/calendar-event.entity';
import { Account } from '../tenancy/account.entity';
import type { AccountId } from '../tenancy/tenant-ids';

export const ATTENDEE_KINDS = ['person', 'email'] as const;
export type AttendeeKind = (typeof ATTENDEE_KINDS)[number];
/** iCalendar ROLE values we use (RFC 5545 3.2.16). */
export const ATTENDEE_ROLES = ['REQ-PARTICIPANT', 'OPT-PARTICIPANT'] as const;
export type AttendeeRole = (typeof ATTENDEE_ROLES)[number];
/** iCalendar PARTSTAT values of a VEVENT (RFC 5545 3.2.12), minus DELEGATED. */
export const PARTSTATS = ['NEEDS-ACTION', 'ACCEPTED', 'DECLINED', 'TENTATIVE'] as const;
export type Partstat = (typeof PARTSTATS)[number];
/** What an attendee may answer: every PARTSTAT but NEEDS-ACTION. */
export const ANSWERS = ['ACCEPTED', 'DECLINED', 'TENTATIVE'] as const;
export type Answer = (typeof ANSWERS)[number];

/**
 * One invited person (by person id) or guest (by lower-cased email) of an event, with their answer.
 * Keyed by the event, the kind and the attendee key (a person id may look like an email), so inviting again finds the same row.
 */
@Entity({ name: 'event_attendees' })
@Index('event_attendees_account_key_idx', ['accountId', 'attendeeKey'])
@Check('event_attendees_kind_ck', `kind IN ('person', 'email')`)
@Check('event_attendees_role_ck', `role IN ('REQ-PARTICIPANT', 'OPT-PARTICIPANT')`)
@Check('event_attendees_partstat_ck', `partstat IN ('NEEDS-ACTION', 'ACCEPTED', 'DECLINED', 'TENTATIVE')`)
@Check(
  'event_attendees_lengths_ck',
  `char_length(attendee_key) <= 254 AND char_length(comment) <= 500
          AND char_length(invited_by) <= 128`,
)
export class EventAttendee {
  @PrimaryColumn({ name: 'event_id', type: 'uuid' })
  @ForeignKey(() => CalendarEvent, { name: 'event_attendees_event_id_fkey', onDelete: 'CASCADE' })
  eventId: string;
  @Column({ name: 'account_id', type: 'text' })
  @ForeignKey(() => Account, { name: 'event_attendees_account_id_fkey' })
  accountId: AccountId;
  @PrimaryColumn({ name: 'attendee_key', type: 'text' }) attendeeKey: string;
  @PrimaryColumn({ type: 'text' }) kind: AttendeeKind;
  @Column({ type: 'text', default: 'REQ-PARTICIPANT' }) role: AttendeeRole;
  @Column({ type: 'text', default: 'NEEDS-ACTION' }) partstat: Partstat;
  @Column({ type: 'text', nullable: true }) comment: string | null;
  @Column({ name: 'responded_at', type: 'timestamptz', nullable: true }) respondedAt: Date | null;
  @Column({ name: 'invited_at', type: 'timestamptz', default: () => 'now()' }) invitedAt: Date;
  @Column({ name: 'invited_by', type: 'text' }) invitedBy: string;
}
