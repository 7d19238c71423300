import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PersonSecretsRepository } from '../tenancy/person-secrets.repository';
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
export class IcsFeedsRepository extends PersonSecretsRepository<IcsFeed> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, IcsFeed, 'ics_feeds');
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
}
