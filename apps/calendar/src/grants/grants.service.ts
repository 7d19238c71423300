import { Injectable } from '@nestjs/common';
import { Transactions } from '@platform/persistence';
import { OwnersRepository } from '@platform/tenancy';
import type { CalendarPrincipal } from '../auth/calendar.access';
import { CalendarError, calendarError } from '../events/event.errors';
import { asProductId, type AccountId, type ProductId } from '../tenancy/tenant-ids';
import { GrantsRepository } from './grants.repository';
import type { IntegrationGrant } from './integration-grant.entity';
import { PERMISSIONS, isPermission, type Permission } from './permissions';
import { TeamsRepository } from './teams.repository';

export interface GrantView {
  product_id: string;
  permission: Permission;
  granted_by: string;
  granted_at: string;
}

const grantView = (g: IntegrationGrant): GrantView => ({
  product_id: g.productId,
  permission: g.permission,
  granted_by: g.grantedBy,
  granted_at: g.grantedAt.toISOString(),
});

/**
 * The account owner decides which integration may do what on the account's calendar: no product has
 * access until granted. Teams decide which people see each other's events.
 */
@Injectable()
export class GrantsService {
  constructor(
    private readonly grants: GrantsRepository,
    private readonly teams: TeamsRepository,
    private readonly products: OwnersRepository,
    private readonly transactions: Transactions,
  ) {}

  /** A product key sees only its own grants; a person of the account sees all. */
  async list(p: CalendarPrincipal): Promise<GrantView[]> {
    return (await this.grants.list(p.accountId, p.kind === 'key' ? p.productId : undefined)).map(grantView);
  }

  /** Idempotent; returns the product's grants after the change. */
  async grant(
    accountId: AccountId,
    productId: string,
    permissions: string[],
    grantedBy: string,
  ): Promise<GrantView[]> {
    const unknown = permissions.filter((x) => !isPermission(x));
    if (unknown.length)
      throw new Error(`unknown permissions: ${unknown.join(', ')} (use ${PERMISSIONS.join(', ')})`);
    if (!(await this.products.exists(productId))) {
      throw calendarError(CalendarError.PRODUCT_NOT_FOUND, { productId });
    }
    const product = asProductId(productId);
    await this.grants.add(accountId, product, permissions as Permission[], grantedBy);
    return this.grantsOf(accountId, product);
  }

  async revoke(accountId: AccountId, productId: string, permissions: Permission[]): Promise<GrantView[]> {
    const product = asProductId(productId);
    await this.grants.remove(accountId, product, permissions);
    return this.grantsOf(accountId, product);
  }

  async teamsOf(accountId: AccountId): Promise<{ team_id: string; members: string[] }[]> {
    const teams = new Map<string, string[]>();
    for (const r of await this.teams.all(accountId))
      teams.set(r.teamId, [...(teams.get(r.teamId) ?? []), r.personId]);
    return [...teams].map(([team_id, members]) => ({ team_id, members }));
  }

  async setTeamMembers(accountId: AccountId, teamId: string, members: string[]): Promise<void> {
    await this.transactions.run((tx) => this.teams.replace(tx, accountId, teamId, members));
  }

  private async grantsOf(accountId: AccountId, productId: ProductId): Promise<GrantView[]> {
    return (await this.grants.list(accountId, productId)).map(grantView);
  }
}
