import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, txManager, type Tx } from '@platform/persistence';
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

  async membersOf(accountId: AccountId, teamId: string): Promise<string[]> {
    return (await this.find(accountId, { teamId })).map((m) => m.personId);
  }

  /** Everyone sharing a team with `personId`, in one query. */
  async teammatesOf(accountId: AccountId, personId: string): Promise<string[]> {
    const rows = await this.select(accountId, 't')
      .select('DISTINCT t.person_id', 'person_id')
      .andWhere(
        `t.team_id IN (SELECT me.team_id FROM team_members me WHERE me.account_id = t.account_id AND me.person_id = :me)`,
        { me: personId },
      )
      .getRawMany<{ person_id: string }>();
    return rows.map((r) => r.person_id);
  }

  /**
   * Replaces a team's members. Two replacements of one team at once would both delete nothing visible
   * and then collide on insert; the advisory lock takes them one at a time, the last one wins.
   */
  async replace(tx: Tx, accountId: AccountId, teamId: string, members: string[]): Promise<void> {
    await txManager(tx).query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
      `team-members:${accountId}:${teamId}`,
    ]);
    await this.delete(accountId, { teamId }, tx);
    await this.insert(
      accountId,
      members.map((personId) => ({ teamId, personId })),
      tx,
    );
  }
}
