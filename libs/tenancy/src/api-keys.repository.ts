import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull, MoreThan, Not } from 'typeorm';
import { COUNT_LOCK, TenantScopedRepository, withinCountLimit, type Tx } from '@platform/persistence';
import type { ApiKeyColumns } from './api-key.entity';
import { TENANCY_OPTIONS, type TenancyOptions } from './tenancy.options';

export type NewApiKey = Pick<ApiKeyColumns, 'keyId' | 'hash' | 'label' | 'scopes' | 'isDefault'> & {
  expiresAt?: Date | null;
};

/** The service's `api_keys` table, scoped to the owner (lookups by key id: api-key-lookup.unscoped.repository.ts). */
@Injectable()
export class ApiKeysRepository extends TenantScopedRepository<ApiKeyColumns, 'ownerId'> {
  constructor(@InjectDataSource() ds: DataSource, @Inject(TENANCY_OPTIONS) options: TenancyOptions) {
    super(ds, options.keyEntity, 'ownerId');
  }

  /**
   * The owner's live keys (not revoked, not past their end), the one being replaced by a reissue left
   * out: what API_KEYS_MAX_LIVE_PER_OWNER bounds.
   */
  countLive(ownerId: string, tx: Tx, except?: string): Promise<number> {
    const others = except === undefined ? {} : { keyId: Not(except) };
    return this.count(
      ownerId,
      [
        { ...others, revokedAt: IsNull(), expiresAt: IsNull() },
        { ...others, revokedAt: IsNull(), expiresAt: MoreThan(new Date()) },
      ],
      tx,
    );
  }

  /**
   * Runs `create` only while the owner holds fewer than `max` live keys (the key a reissue replaces
   * not counted), under the platform's count lock: concurrent issues cannot pass the bound together.
   */
  withinLiveBound<T>(
    tx: Tx,
    ownerId: string,
    bound: { max: number; full: (max: number) => Error; except?: string },
    create: () => Promise<T>,
  ): Promise<T> {
    return withinCountLimit(
      // The platform's count lock (key `api_keys:<owner>`) through the tenant door: the owner is $1.
      { query: () => this.sql(ownerId, COUNT_LOCK, ['api_keys'], tx) },
      {
        kind: 'api_keys',
        ownerId,
        max: bound.max,
        count: () => this.countLive(ownerId, tx, bound.except),
        full: bound.full,
      },
      create,
    );
  }

  add(ownerId: string, key: NewApiKey, tx?: Tx): Promise<void> {
    return this.insert(ownerId, [key], tx);
  }

  listOf(ownerId: string): Promise<ApiKeyColumns[]> {
    return this.find(ownerId, {}, { createdAt: 'ASC', keyId: 'ASC' });
  }

  /** One page of the owner's keys, newest first, and how many it has. */
  pageOf(ownerId: string, offset: number, limit: number): Promise<[ApiKeyColumns[], number]> {
    return this.page(ownerId, {}, { order: { createdAt: 'DESC', keyId: 'ASC' }, offset, limit });
  }

  /** The owner's key with this id; another owner's key is not found. */
  findOwned(ownerId: string, keyId: string): Promise<ApiKeyColumns | null> {
    return this.findOne(ownerId, { keyId });
  }

  /** Revokes the owner's key unless already revoked; returns whether this call revoked it. */
  async revokeOwned(ownerId: string, keyId: string): Promise<boolean> {
    return (await this.update(ownerId, { keyId, revokedAt: IsNull() }, { revokedAt: () => 'now()' })) > 0;
  }

  revokeByLabel(ownerId: string, label: string): Promise<number> {
    return this.update(ownerId, { label, revokedAt: IsNull() }, { revokedAt: () => 'now()' });
  }

  /** The replaced key of a reissue keeps working until `at`. */
  async expire(ownerId: string, keyId: string, at: Date, tx: Tx): Promise<void> {
    await this.update(ownerId, { keyId }, { expiresAt: at }, tx);
  }
}
