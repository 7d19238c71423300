import { Check, Column, CreateDateColumn, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { Account } from '../tenancy/account.entity';
import type { AccountId } from '../tenancy/tenant-ids';

/** A calendar a person made with MKCALENDAR (migration Caldav); `default` is implicit and never stored. */
@Entity({ name: 'dav_calendars' })
@Check(
  'dav_calendars_lengths_ck',
  `char_length(person_id) <= 128 AND char_length(slug) <= 64
        AND char_length(display_name) <= 200 AND char_length(color) <= 16 AND char_length(description) <= 1000`,
)
export class DavCalendar {
  @PrimaryColumn({ name: 'account_id', type: 'text' })
  @ForeignKey(() => Account, { name: 'dav_calendars_account_id_fkey' })
  accountId: AccountId;
  @PrimaryColumn({ name: 'person_id', type: 'text' }) personId: string;
  @PrimaryColumn({ type: 'text' }) slug: string;
  @Column({ name: 'display_name', type: 'text' }) displayName: string;
  @Column({ type: 'text', nullable: true }) color: string | null;
  @Column({ type: 'text', nullable: true }) description: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
