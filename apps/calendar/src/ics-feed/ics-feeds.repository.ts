import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull } from 'typeorm';
import { COUNT_LOCK, TenantScopedRepository, withinCountLimit, type Tx } from '@platform/persistence';
import type { AccountId } from '../tenancy/tenant-ids';
import { IcsFeed } from './ics-feed.entity';

export type NewIcsFeed = Pick<IcsFeed, 'subject' | 'view' | 'target' | 'name' | 'keyId' | 'tokenHash'>;

/** What the writer needs of an event beyond the view's columns: the CalDAV client's own text and UID. */
export interface StoredIcal {
  id: string;
  icalUid: string | null;
  ical: string | null;
}

/**
 * A person's ICS feeds on one account (the token lookup across accounts:
 * ics-feed-tokens.unscoped.repository.ts). Every owner method names the person as well: one person
 * never sees or revokes another's.
 */
@Injectable()
export class IcsFeedsRepository extends TenantScopedRepository<IcsFeed, 'accountId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, IcsFeed, 'accountId');
  }

  /** Runs `create` only while the person holds fewer than `max` active feeds (the platform's count lock). */
  withinPersonBound<T>(
    tx: Tx,
    accountId: AccountId,
    subject: string,
    bound: { max: number; full: (max: number) => Error },
    create: () => Promise<T>,
  ): Promise<T> {
    return withinCountLimit(
      { query: () => this.sql(accountId, COUNT_LOCK, ['ics_feeds'], tx) },
      {
        kind: 'ics_feeds',
        ownerId: accountId,
        max: bound.max,
        count: () => this.count(accountId, [{ subject, revokedAt: IsNull() }], tx),
        full: bound.full,
      },
      create,
    );
  }

  async add(accountId: AccountId, row: NewIcsFeed, tx: Tx): Promise<IcsFeed> {
    const [{ id }] = await this.insertReturning(accountId, [row], tx);
    return (await this.findOne(accountId, { id }, tx)) as IcsFeed;
  }

  /** The person's active feeds, newest first. */
  activeOf(accountId: AccountId, subject: string): Promise<IcsFeed[]> {
    return this.find(accountId, { subject, revokedAt: IsNull() }, { createdAt: 'DESC', id: 'ASC' });
  }

  /** Revokes the person's active feed; null when there is none with this id (or it was revoked). */
  async revoke(accountId: AccountId, subject: string, id: string): Promise<IcsFeed | null> {
    const changed = await this.update(
      accountId,
      { id, subject, revokedAt: IsNull() },
      { revokedAt: () => 'now()' },
    );
    return changed ? this.findOne(accountId, { id }) : null;
  }

  /** Is the person a member of the team (the rule for a team feed, at creation and at every fetch)? */
  async isTeamMember(accountId: AccountId, team: string, person: string): Promise<boolean> {
    const rows = await this.sql<{ one: number }>(
      accountId,
      `SELECT 1 AS one FROM team_members WHERE account_id = $1 AND team_id = $2 AND person_id = $3`,
      [team, person],
    );
    return rows.length > 0;
  }

  /** The stored iCalendar of those events that came from a CalDAV client (others: absent). */
  async storedIcal(accountId: AccountId, ids: string[]): Promise<StoredIcal[]> {
    if (!ids.length) return [];
    return this.sql<StoredIcal>(
      accountId,
      `SELECT id, ical_uid AS "icalUid", ical FROM events
        WHERE account_id = $1 AND id = ANY($2::uuid[]) AND (ical IS NOT NULL OR ical_uid IS NOT NULL)`,
      [ids],
    );
  }

  /** Marks a fetch, at most once a minute per feed: a polling client's every request is not a write. */
  async touch(accountId: AccountId, id: string): Promise<void> {
    await this.sqlCount(
      accountId,
      `UPDATE ics_feeds SET last_used_at = now()
        WHERE account_id = $1 AND id = $2 AND revoked_at IS NULL
          AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
      [id],
    );
  }
}
