import { IsNull, type DataSource, type EntityTarget, type FindOptionsOrder } from 'typeorm';
import {
  COUNT_LOCK,
  TenantScopedRepository,
  withinCountLimit,
  type TenantWhere,
  type Tx,
} from '@platform/persistence';
import type { CountedKind } from '@platform/persistence';
import type { AccountId } from './tenant-ids';

/** A secret a person holds on an account (an app password, a feed token): shown once, revocable. */
export interface PersonSecret {
  id: string;
  accountId: AccountId;
  subject: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/**
 * The rows of a person's revocable secrets on one account (app passwords, ICS feed tokens): every method
 * names the person as well, so one person never sees or revokes another's; creations are capped per
 * person under the platform's count lock (per account: they are rare, so one account's take turns).
 */
export abstract class PersonSecretsRepository<E extends PersonSecret> extends TenantScopedRepository<
  E,
  'accountId'
> {
  protected constructor(
    ds: DataSource,
    entity: EntityTarget<E>,
    private readonly kind: CountedKind,
  ) {
    super(ds, entity, 'accountId');
  }

  private active(subject: string, more: Record<string, unknown> = {}): TenantWhere<E, 'accountId'> {
    return { subject, revokedAt: IsNull(), ...more } as unknown as TenantWhere<E, 'accountId'>;
  }

  /** Runs `create` only while the person holds fewer than `max` active secrets of this kind. */
  withinPersonBound<T>(
    tx: Tx,
    accountId: AccountId,
    subject: string,
    bound: { max: number; full: (max: number) => Error },
    create: () => Promise<T>,
  ): Promise<T> {
    return withinCountLimit(
      // The count lock (key `<kind>:<account>`) through the tenant door: the account is $1.
      { query: () => this.sql(accountId, COUNT_LOCK, [this.kind], tx) },
      {
        kind: this.kind,
        ownerId: accountId,
        max: bound.max,
        count: () => this.count(accountId, [this.active(subject)], tx),
        full: bound.full,
      },
      create,
    );
  }

  /** Stores a new secret's row and returns it as stored (its id and creation time). */
  async add(accountId: AccountId, row: Omit<Partial<E>, 'accountId'>, tx: Tx): Promise<E> {
    const [{ id }] = await this.insertReturning(accountId, [row as never], tx);
    return (await this.findOne(accountId, { id } as unknown as TenantWhere<E, 'accountId'>, tx)) as E;
  }

  /** The person's active secrets, newest first. */
  activeOf(accountId: AccountId, subject: string): Promise<E[]> {
    return this.find(accountId, this.active(subject), {
      createdAt: 'DESC',
      id: 'ASC',
    } as FindOptionsOrder<E>);
  }

  /** Revokes the person's active secret; null when there is none with this id (or it was revoked). */
  async revoke(accountId: AccountId, subject: string, id: string): Promise<E | null> {
    const changed = await this.update(accountId, this.active(subject, { id }), {
      revokedAt: () => 'now()',
    } as never);
    return changed ? this.findOne(accountId, { id } as unknown as TenantWhere<E, 'accountId'>) : null;
  }

  /**
   * Marks a use, at most once a minute per secret: a client's every request (a syncing calendar, a
   * polling feed reader) must not be a write. The condition makes replicas racing on a minute write once.
   */
  async touch(accountId: AccountId, id: string): Promise<void> {
    await this.sqlCount(
      accountId,
      `UPDATE ${this.metadata.tableName} SET last_used_at = now()
        WHERE account_id = $1 AND id = $2 AND revoked_at IS NULL
          AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
      [id],
    );
  }
}
