import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import { Authenticated, CurrentPrincipal } from '@platform/auth';
import { list } from '@platform/envelope';
import { inTransaction } from '@platform/persistence';
import { OwnerOnly, type CalendarPrincipal, type PersonPrincipal } from '../auth/calendar.guard';
import { RequirePermission } from './permissions';
import { CalendarError, calendarError } from '../events/event.errors';
import { Product } from '../tenancy/product.entity';
import { grantPermissions } from '../tenancy/tenancy.admin';
import { GrantRequest, SetTeamMembersRequest } from './dto/grant.request';
import { IntegrationGrant, TeamMember } from './integration-grant.entity';

const grantView = (g: IntegrationGrant) => ({
  product_id: g.productId,
  permission: g.permission,
  granted_by: g.grantedBy,
  granted_at: g.grantedAt.toISOString(),
});

/**
 * The account owner decides which integration may do what on the account's calendar: no product has
 * access until granted. A product key may list its own grants.
 */
@ApiTags('Calendar access')
@ApiHeader({ name: 'PlatformSession', required: false, description: "Account owner's session (JWT)" })
@Controller('Calendar')
export class GrantsController {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  @Get('grants')
  @Authenticated('platform-session', 'product-key')
  @ApiOperation({ summary: 'Integration grants on the account (a product key sees only its own)' })
  async grants(@CurrentPrincipal() p: CalendarPrincipal) {
    const rows = await this.ds.getRepository(IntegrationGrant).find({
      where: { accountId: p.accountId, ...(p.kind === 'product' ? { productId: p.productId } : {}) },
      order: { productId: 'ASC', permission: 'ASC' },
    });
    return list(rows.map(grantView), rows.length);
  }

  @Post('grant')
  @HttpCode(200)
  @Authenticated('platform-session')
  @OwnerOnly()
  @ApiOperation({ summary: 'Grant permissions to an integration (idempotent)' })
  @ApiBody({ type: GrantRequest })
  async grant(@CurrentPrincipal() p: PersonPrincipal, @Body() body: GrantRequest) {
    if (!(await this.ds.getRepository(Product).existsBy({ id: body.product_id }))) {
      throw calendarError(CalendarError.PRODUCT_NOT_FOUND, { productId: body.product_id });
    }
    await grantPermissions(this.ds, p.accountId, body.product_id, body.permissions, p.subject);
    return this.grantsOf(p, body.product_id);
  }

  @Post('revokeGrant')
  @HttpCode(200)
  @Authenticated('platform-session')
  @OwnerOnly()
  @ApiOperation({ summary: 'Revoke permissions of an integration; takes effect on its next call' })
  @ApiBody({ type: GrantRequest })
  async revoke(@CurrentPrincipal() p: PersonPrincipal, @Body() body: GrantRequest) {
    await this.ds
      .getRepository(IntegrationGrant)
      .delete({ accountId: p.accountId, productId: body.product_id, permission: In(body.permissions) });
    return this.grantsOf(p, body.product_id);
  }

  @Get('teams')
  @Authenticated('platform-session', 'product-key')
  @RequirePermission('Share')
  @ApiOperation({
    summary: 'Teams of the account and their members (a person, or an integration with Share)',
  })
  async teams(@CurrentPrincipal() p: CalendarPrincipal) {
    const rows = await this.ds
      .getRepository(TeamMember)
      .find({ where: { accountId: p.accountId }, order: { teamId: 'ASC', personId: 'ASC' } });
    const teams = new Map<string, string[]>();
    for (const r of rows) teams.set(r.teamId, [...(teams.get(r.teamId) ?? []), r.personId]);
    return list(
      [...teams].map(([team_id, members]) => ({ team_id, members })),
      teams.size,
    );
  }

  @Post('setTeamMembers')
  @HttpCode(200)
  @Authenticated('platform-session', 'product-key')
  @OwnerOnly()
  @RequirePermission('Share')
  @ApiOperation({
    summary: "Replace a team's members: who sees whose events (the owner, or an integration with Share)",
  })
  @ApiBody({ type: SetTeamMembersRequest })
  async setTeamMembers(@CurrentPrincipal() p: CalendarPrincipal, @Body() body: SetTeamMembersRequest) {
    await inTransaction(this.ds, async (tx) => {
      // Two replacements of one team at once would both delete nothing visible and then collide on
      // insert (a 500); one at a time per team, the last one wins.
      await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
        `team-members:${p.accountId}:${body.team_id}`,
      ]);
      await tx.getRepository(TeamMember).delete({ accountId: p.accountId, teamId: body.team_id });
      if (body.members.length) {
        await tx
          .getRepository(TeamMember)
          .insert(
            body.members.map((personId) => ({ accountId: p.accountId, teamId: body.team_id, personId })),
          );
      }
    });
    return { team_id: body.team_id, members: body.members };
  }

  private async grantsOf(p: PersonPrincipal, productId: string) {
    const rows = await this.ds
      .getRepository(IntegrationGrant)
      .find({ where: { accountId: p.accountId, productId }, order: { permission: 'ASC' } });
    return list(rows.map(grantView), rows.length);
  }
}
