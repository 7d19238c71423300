import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { list } from '@platform/envelope';
import { CalendarAccess, type CalendarPrincipal, type PersonPrincipal } from '../auth/calendar.access';
import { GrantRequest, SetTeamMembersRequest } from './dto/grant.request';
import { CalendarError } from '../events/event.errors';
import { GrantsService } from './grants.service';

/**
 * The account owner decides which integration may do what on the account's calendar: no product has
 * access until granted. A product key may list its own grants.
 */
@ApiTags('Calendar access')
@ApiHeader({ name: 'PlatformSession', required: false, description: "Account owner's session (JWT)" })
@Controller('Calendar')
export class GrantsController {
  constructor(private readonly access: GrantsService) {}

  @Get('grants')
  @CalendarAccess.Authenticated('platform-session', 'product-key')
  @CalendarAccess.NoScopeRequired("a product key sees only its own grants; a person, their account's")
  @ApiOperation({ summary: 'Integration grants on the account (a product key sees only its own)' })
  async grants(@CurrentPrincipal() p: CalendarPrincipal) {
    const rows = await this.access.list(p);
    return list(rows, rows.length);
  }

  @Post('grant')
  @HttpCode(200)
  @ApiReasons(CalendarError.PRODUCT_NOT_FOUND)
  @CalendarAccess.Authenticated('platform-session')
  @CalendarAccess.RequireScopes('ManageAccess')
  @ApiOperation({ summary: 'Grant permissions to an integration (idempotent)' })
  @ApiBody({ type: GrantRequest })
  async grant(@CurrentPrincipal() p: PersonPrincipal, @Body() body: GrantRequest) {
    const rows = await this.access.grant(p.accountId, body.product_id, body.permissions, p.subject);
    return list(rows, rows.length);
  }

  @Post('revokeGrant')
  @HttpCode(200)
  @CalendarAccess.Authenticated('platform-session')
  @CalendarAccess.RequireScopes('ManageAccess')
  @ApiOperation({ summary: 'Revoke permissions of an integration; takes effect on its next call' })
  @ApiBody({ type: GrantRequest })
  async revoke(@CurrentPrincipal() p: PersonPrincipal, @Body() body: GrantRequest) {
    const rows = await this.access.revoke(p.accountId, body.product_id, body.permissions);
    return list(rows, rows.length);
  }

  @Get('teams')
  @CalendarAccess.Authenticated('platform-session', 'product-key')
  @CalendarAccess.RequireAnyScope('Share', 'ViewTeams')
  @ApiOperation({
    summary: 'Teams of the account and their members (a person, or an integration with Share)',
  })
  async teams(@CurrentPrincipal() p: CalendarPrincipal) {
    const teams = await this.access.teamsOf(p.accountId);
    return list(teams, teams.length);
  }

  @Post('setTeamMembers')
  @HttpCode(200)
  @CalendarAccess.Authenticated('platform-session', 'product-key')
  @CalendarAccess.RequireScopes('Share')
  @ApiOperation({
    summary: "Replace a team's members: who sees whose events (the owner, or an integration with Share)",
  })
  @ApiBody({ type: SetTeamMembersRequest })
  async setTeamMembers(@CurrentPrincipal() p: CalendarPrincipal, @Body() body: SetTeamMembersRequest) {
    await this.access.setTeamMembers(p.accountId, body.team_id, body.members);
    return { team_id: body.team_id, members: body.members };
  }
}
