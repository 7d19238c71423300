import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull } from 'typeorm';
import { COUNT_LOCK, TenantScopedRepository, withinCountLimit, type Tx } from '@platform/persistence';
import type { AccountId } from '../tenancy/tenant-ids';
import { AppPassword } from './app-password.entity';

export type NewAppPassword = Pick<AppPassword, 'subject' | 'label' | 'login' | 'secretHash'>;

/**
 * A person's app passwords on one account (Basic login's lookup by username alone:
 * app-password-logins.unscoped.repository.ts). Every method names the person as well: one person never
 * sees or revokes another's.
 */
@Injectable()
export class AppPasswordsRepository extends TenantScopedRepository<AppPassword, 'accountId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, AppPassword, 'accountId');
  }

  /**
   * Runs `create` only while the person holds fewer than `max` active app passwords, under the
   * platform's count lock (per account: creations are rare, so one account's take turns).
   */
  withinPersonBound<T>(
    tx: Tx,
    accountId: AccountId,
    subject: string,
    bound: { max: number; full: (max: number) => Error },
    create: () => Promise<T>,
  ): Promise<T> {
    return withinCountLimit(
      // The platform's count lock (key `app_passwords:<account>`) through the tenant door: the account is $1.
      { query: () => this.sql(accountId, COUNT_LOCK, ['app_passwords'], tx) },
      {
        kind: 'app_passwords',
        ownerId: accountId,
        max: bound.max,
        count: () => this.count(accountId, [{ subject, revokedAt: IsNull() }], tx),
        full: bound.full,
      },
      create,
    );
  }

  /** Stores a new app password and returns it as stored (its id and creation time). */
  async add(accountId: AccountId, row: NewAppPassword, tx: Tx): Promise<AppPassword> {
    const [{ id }] = await this.insertReturning(accountId, [row], tx);
    return (await this.findOne(accountId, { id }, tx)) as AppPassword;
  }

  /** The person's active app passwords, newest first. */
  activeOf(accountId: AccountId, subject: string): Promise<AppPassword[]> {
    return this.find(accountId, { subject, revokedAt: IsNull() }, { createdAt: 'DESC', id: 'ASC' });
  }

  /** Revokes the person's active app password; null when there is none with this id (or it was revoked). */
  async revoke(accountId: AccountId, subject: string, id: string): Promise<AppPassword | null> {
    const changed = await this.update(
      accountId,
      { id, subject, revokedAt: IsNull() },
      { revokedAt: () => 'now()' },
    );
    return changed ? this.findOne(accountId, { id }) : null;
  }

  /**
   * Marks a successful login, at most once a minute per app password: a syncing client's every request
   * must not be a write. The condition makes replicas racing on the same minute write once.
   */
  async touch(accountId: AccountId, id: string): Promise<void> {
    await this.sqlCount(
      accountId,
      `UPDATE app_passwords SET last_used_at = now()
        WHERE account_id = $1 AND id = $2 AND revoked_at IS NULL
          AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
      [id],
    );
  }
}
