import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { hashApiKey } from '@platform/auth';
import { Transactions } from '@platform/persistence';
import type { PersonPrincipal } from '../auth/calendar.access';
import { CalendarConfig } from '../config/calendar.config';
import type { AppPassword } from './app-password.entity';
import { AppPasswordError, appPasswordError } from './app-password.errors';
import { AppPasswordsRepository } from './app-passwords.repository';
import type {
  AppPasswordResponse,
  CreatedAppPasswordResponse,
  RevokedAppPasswordResponse,
} from './dto/app-password.response';

/** Where CalDAV is served, below CALENDAR_PUBLIC_URL (decision 0041). */
export const CALDAV_ROOT_PATH = '/dav/';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** `dav-` and 80 random bits in hex: unique across accounts (a unique index), lower case, no colon. */
const newLogin = () => `dav-${randomBytes(10).toString('hex')}`;
/** 192 random bits, base64url (32 characters, URL-safe): guessing is hopeless, hashing is enough. */
const newPassword = () => randomBytes(24).toString('base64url');

const view = (p: AppPassword): AppPasswordResponse => ({
  id: p.id,
  label: p.label,
  username: p.login,
  created_at: p.createdAt.toISOString(),
  last_used_at: p.lastUsedAt?.toISOString() ?? null,
});

/**
 * A person's own CalDAV app passwords (decision 0041): created with a session, shown once, stored as
 * a SHA-256 hash (libs/auth, like API keys), listed without secrets, revoked one by one.
 */
@Injectable()
export class AppPasswordsService {
  constructor(
    private readonly passwords: AppPasswordsRepository,
    private readonly transactions: Transactions,
    private readonly cfg: CalendarConfig,
  ) {}

  async create(p: PersonPrincipal, label: string): Promise<CreatedAppPasswordResponse> {
    const password = newPassword();
    const row = await this.transactions.run((tx) =>
      this.passwords.withinPersonBound(
        tx,
        p.accountId,
        p.subject,
        {
          max: this.cfg.CALENDAR_APP_PASSWORDS_PER_PERSON,
          full: (max) => appPasswordError(AppPasswordError.LIMIT_REACHED, { max }, { max }),
        },
        () =>
          this.passwords.add(
            p.accountId,
            { subject: p.subject, label, login: newLogin(), secretHash: hashApiKey(password) },
            tx,
          ),
      ),
    );
    return { ...view(row), password, caldav_url: this.caldavUrl() };
  }

  async list(p: PersonPrincipal): Promise<AppPasswordResponse[]> {
    return (await this.passwords.activeOf(p.accountId, p.subject)).map(view);
  }

  /** Another person's or account's id, an unknown or malformed one, or one already revoked: 404. */
  async revoke(p: PersonPrincipal, id: string): Promise<RevokedAppPasswordResponse> {
    const row = UUID.test(id) ? await this.passwords.revoke(p.accountId, p.subject, id) : null;
    if (!row?.revokedAt) throw appPasswordError(AppPasswordError.NOT_FOUND, { id });
    return { ...view(row), revoked_at: row.revokedAt.toISOString() };
  }

  private caldavUrl(): string {
    return `${this.cfg.CALENDAR_PUBLIC_URL.replace(/\/+$/, '')}${CALDAV_ROOT_PATH}`;
  }
}
