import { Body, Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope, ShowsSecret, list } from '@platform/envelope';
import { ApiLanguageHeader } from '../auth/api-headers';
import { CalendarAccess, type PersonPrincipal } from '../auth/calendar.access';
import { AppPasswordError } from './app-password.errors';
import { AppPasswordsService } from './app-passwords.service';
import {
  AppPasswordResponse,
  CreatedAppPasswordResponse,
  RevokedAppPasswordResponse,
} from './dto/app-password.response';
import { CreateAppPasswordRequest } from './dto/create-app-password.request';

const OWN = 'a person sees, creates and revokes only their own app passwords';

/**
 * A person's CalDAV app passwords (decision 0041), with their session only: a product key cannot make
 * one, and an app password cannot make another.
 */
@ApiTags('CalDAV app passwords')
@ApiLanguageHeader()
@Controller('Calendar')
export class AppPasswordsController {
  constructor(private readonly passwords: AppPasswordsService) {}

  @Post('app-passwords')
  @ShowsSecret()
  @CalendarAccess.Authenticated('platform-session')
  @CalendarAccess.NoScopeRequired(OWN)
  @ApiOperation({
    summary: 'Create an app password for a CalDAV client; its password is shown once',
    description:
      'Sign the client in with `username` and `password` (HTTP Basic) at `caldav_url`. Each device gets its own, so each can be revoked alone. Only a hash of the password is kept: it cannot be shown again.',
  })
  @ApiReasons(AppPasswordError.LIMIT_REACHED)
  @ApiEnvelope(CreatedAppPasswordResponse, { status: 201 })
  createAppPassword(@CurrentPrincipal() p: PersonPrincipal, @Body() body: CreateAppPasswordRequest) {
    return this.passwords.create(p, body.label);
  }

  @Get('app-passwords')
  @CalendarAccess.Authenticated('platform-session')
  @CalendarAccess.NoScopeRequired(OWN)
  @ApiOperation({ summary: 'Your active app passwords, newest first, without their passwords' })
  @ApiEnvelope(AppPasswordResponse, { list: true })
  async listAppPasswords(@CurrentPrincipal() p: PersonPrincipal) {
    const items = await this.passwords.list(p);
    return list(items, items.length);
  }

  @Delete('app-passwords/:id')
  @CalendarAccess.Authenticated('platform-session')
  @CalendarAccess.NoScopeRequired(OWN)
  @ApiOperation({ summary: 'Revoke an app password: its client is signed out on its next request' })
  @ApiParam({ name: 'id', format: 'uuid', description: 'Identifier of the app password' })
  @ApiReasons(AppPasswordError.NOT_FOUND)
  @ApiEnvelope(RevokedAppPasswordResponse)
  revokeAppPassword(@CurrentPrincipal() p: PersonPrincipal, @Param('id') id: string) {
    return this.passwords.revoke(p, id);
  }
}
