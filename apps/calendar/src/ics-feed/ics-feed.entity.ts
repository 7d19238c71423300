import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { Account } from '../tenancy/account.entity';
import type { AccountId } from '../tenancy/tenant-ids';

/** Whose events a feed shows: the owner's own, a team of theirs, or a resource's bookings. */
export const ICS_FEED_VIEWS = ['person', 'team', 'resource'] as const;
export type IcsFeedView = (typeof ICS_FEED_VIEWS)[number];

/**
 * A person's ICS subscription feed (docs/ics-feed.md). The token (`ics_<key_id>_<secret>`, libs/auth
 * issueApiKey) is shown once; only its SHA-256 is kept. `key_id` is unique across accounts, so the
 * token alone finds its row. A revoked row stays (revoked_at set) and never answers again.
 */
@Entity({ name: 'ics_feeds' })
@Index('ics_feeds_key_id_key', ['keyId'], { unique: true })
@Index('ics_feeds_person_idx', ['accountId', 'subject'])
@Check('ics_feeds_view_ck', `view IN ('person', 'team', 'resource')`)
@Check(
  'ics_feeds_lengths_ck',
  `char_length(subject) <= 256 AND char_length(target) <= 320 AND char_length(name) <= 100
          AND char_length(key_id) = 12 AND char_length(token_hash) = 64`,
)
export class IcsFeed {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column({ name: 'account_id', type: 'text' })
  @ForeignKey(() => Account, { name: 'ics_feeds_account_id_fkey' })
  accountId: AccountId;
  /** The owner: the `sub` of the PlatformSession that created it; the feed shows what they may see. */
  @Column({ type: 'text' }) subject: string;
  @Column({ type: 'text' }) view: IcsFeedView;
  /** The person (the owner), the team id, or the resource as `type:id`. */
  @Column({ type: 'text' }) target: string;
  /** The calendar's name in the client (X-WR-CALNAME). */
  @Column({ type: 'text' }) name: string;
  /** The token's public id: 12 base62 characters. */
  @Column({ name: 'key_id', type: 'text' }) keyId: string;
  /** SHA-256 of the whole token, hex. */
  @Column({ name: 'token_hash', type: 'text' }) tokenHash: string;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  /** Last fetch, to the minute; null when never fetched. */
  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true }) lastUsedAt: Date | null;
  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true }) revokedAt: Date | null;
}
