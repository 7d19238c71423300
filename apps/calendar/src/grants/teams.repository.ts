import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { AccountId } from '../tenancy/tenant-ids';
import { TeamMember } from './integration-grant.entity';

/** Team membership: who sees whose events. */
@Injectable()
export class TeamsRepository extends TenantScopedRepository<TeamMember, 'accountId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, TeamMember, 'accountId');
  }

  all(accountId: AccountId): Promise<TeamMember[]> {
    return this.find(accountId, {}, { teamId: 'ASC', personId: 'ASC' });
  }

  /**
   * The members of team `team` (SQL placeholders), as a subquery for another repository's statement: a
   * team view then costs no round trip of its own. Unqualified: the search path is the calendar schema.
   */
  static membersSql(account: string, team: string): string {
    return `SELECT tm.person_id FROM team_members tm WHERE tm.account_id = ${account} AND tm.team_id = ${team}`;
  }

  /** Whose events `person` sees: their own and those of everyone sharing a team with them (a subquery). */
  static visibleToSql(account: string, person: string): string {
    return `SELECT ${person}::text UNION SELECT mate.person_id FROM team_members mine
      JOIN team_members mate ON mate.account_id = mine.account_id AND mate.team_id = mine.team_id
      WHERE mine.account_id = ${account} AND mine.person_id = ${person}`;
  }

  /**
   * Replaces a team's members. Two replacements of one team at once would both delete nothing visible
   * and then collide on insert; the advisory lock takes them one at a time, the last one wins.
   */
  async replace(tx: Tx, accountId: AccountId, teamId: string, members: string[]): Promise<void> {
    await this.sql(
      accountId,
      `SELECT pg_advisory_xact_lock(hashtextextended('team-members:' || $1::text || ':' || $2::text, 0))`,
      [teamId],
      tx,
    );
    await this.delete(accountId, { teamId }, tx);
    await this.insert(
      accountId,
      members.map((personId) => ({ teamId, personId })),
      tx,
    );
  }
}
