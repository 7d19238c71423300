import { Injectable } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { hashApiKey, verifyApiKey } from '@platform/auth';
import { clientAddress, trustedProxies, type IpBlocks } from '@platform/network';
import { personScopes, type PersonPrincipal } from '../auth/calendar.access';
import { CalendarConfig } from '../config/calendar.config';
import { DavLoginLimitsRepository } from '../limits/dav-login-limits.unscoped.repository';
import { AppPasswordError, appPasswordError } from './app-password.errors';
import { AppPasswordLoginsRepository } from './app-password-logins.unscoped.repository';
import { AppPasswordsRepository } from './app-passwords.repository';

/** Compared against when the username is unknown, so an unknown and a known username take as long. */
const NO_SUCH_HASH = hashApiKey('no app password has this hash');
const MINUTE_MS = 60_000;

/**
 * HTTP Basic with an app password (decision 0041): the username alone names the account and the
 * person. Failed attempts are counted per username and per client address in PostgreSQL; while
 * either budget is spent, every attempt answers 429 before its password is even looked at, a right one
 * too, so guessing goes no faster than the budget. Successes are not counted.
 */
@Injectable()
export class AppPasswordAuthenticator {
  private readonly trusted: IpBlocks;

  constructor(
    private readonly logins: AppPasswordLoginsRepository,
    private readonly passwords: AppPasswordsRepository,
    private readonly limits: DavLoginLimitsRepository,
    cfg: CalendarConfig,
  ) {
    this.trusted = trustedProxies(cfg.CALENDAR_TRUSTED_PROXIES);
  }

  async authenticate(req: IncomingMessage, username: string, password: string): Promise<PersonPrincipal> {
    const attempt = {
      username,
      address: clientAddress(req.socket?.remoteAddress, req.headers, this.trusted),
    };
    const refused = await this.limits.refusal(attempt);
    if (refused) {
      throw appPasswordError(
        AppPasswordError.DAV_AUTH_RATE_LIMITED,
        { retryAfter: refused.retryAfterSec },
        { retryAfterSec: refused.retryAfterSec },
      ).withHeaders({ 'Retry-After': String(refused.retryAfterSec) });
    }
    const row = await this.logins.byLogin(username.toLowerCase());
    const matches = verifyApiKey(password, row?.secretHash ?? NO_SUCH_HASH);
    if (!row || !matches || row.revokedAt) {
      await this.limits.failed(attempt);
      throw appPasswordError(AppPasswordError.DAV_CREDENTIALS_INVALID);
    }
    if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() >= MINUTE_MS)
      await this.passwords.touch(row.accountId, row.id);
    return {
      kind: 'person',
      subject: row.subject,
      accountId: row.accountId,
      // An app password never carries the owner's powers (grants, team membership changes): a
      // device's password is not the owner's session.
      isOwner: false,
      scopes: personScopes(false),
      via: 'app-password',
    };
  }
}
