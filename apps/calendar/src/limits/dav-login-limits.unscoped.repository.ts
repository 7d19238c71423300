// Unscoped: the login limiter's counters are keyed by bucket in rate_limit_windows, no account's rows.
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { formatCidr, parseCidr } from '@platform/network';
import { PgSlidingWindowLimiter, type RateLimitDecision } from '@platform/persistence';
import { CalendarConfig } from '../config/calendar.config';
import { CALENDAR_SCHEMA } from '../tenancy/tenant-ids';

/** Who a failed Basic login is counted against: the username tried and the client's address. */
export interface LoginAttempt {
  username: string;
  address: string | undefined;
}

/**
 * The budgets of failed CalDAV Basic logins (decision 0041), in `rate_limit_windows` beside the write
 * limits, so every replica counts the same: per username and per client address (an IPv6 client by its
 * /64, which one subscriber usually holds whole). Only failures are hit; `refusal` is asked before the
 * password is checked. Buckets are SHA-256 prefixes: no address or username is stored in the clear.
 */
@Injectable()
export class DavLoginLimitsRepository {
  private readonly perUsername: PgSlidingWindowLimiter;
  private readonly perAddress: PgSlidingWindowLimiter;

  constructor(@InjectDataSource() ds: DataSource, cfg: CalendarConfig) {
    const window = cfg.CALENDAR_DAV_AUTH_WINDOW_SEC;
    this.perUsername = new PgSlidingWindowLimiter(
      ds,
      CALENDAR_SCHEMA,
      cfg.CALENDAR_DAV_AUTH_FAILURES_PER_USERNAME,
      window,
    );
    this.perAddress = new PgSlidingWindowLimiter(
      ds,
      CALENDAR_SCHEMA,
      cfg.CALENDAR_DAV_AUTH_FAILURES_PER_IP,
      window,
    );
  }

  /** The refusal when either budget of failures is spent (the longer wait of the two), else null. */
  async refusal(a: LoginAttempt): Promise<RateLimitDecision | null> {
    const [user, address] = await Promise.all([
      this.perUsername.check(userBucket(a)),
      this.perAddress.check(addressBucket(a)),
    ]);
    const refused = [user, address].filter((d) => !d.allowed);
    if (!refused.length) return null;
    return refused.reduce((a, b) => (b.retryAfterSec > a.retryAfterSec ? b : a));
  }

  /** Counts a failed login against both budgets. */
  async failed(a: LoginAttempt): Promise<void> {
    await Promise.all([this.perUsername.hit(userBucket(a)), this.perAddress.hit(addressBucket(a))]);
  }
}

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 32);

/** Usernames are matched in lower case, so they are counted so too. */
const userBucket = (a: LoginAttempt) => `dav-login-user:${digest(a.username.toLowerCase())}`;

function addressBucket(a: LoginAttempt): string {
  const address = a.address ?? 'unknown';
  const block = isIP(address) === 6 ? parseCidr(`${address}/64`) : address;
  return `dav-login-ip:${digest(typeof block === 'string' ? block : formatCidr(block))}`;
}
