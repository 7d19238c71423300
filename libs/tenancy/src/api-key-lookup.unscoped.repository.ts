// Unscoped: a presented key names its owner (authentication), and operators address a key by its public id alone.
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull } from 'typeorm';
import { txManager, type Tx } from '@platform/persistence';
import type { ApiKeyColumns } from './api-key.entity';
import { TENANCY_OPTIONS, type TenancyOptions } from './tenancy.options';

/** The service's `api_keys` by key id, across owners; the guard then checks the owner against the tenant. */
@Injectable()
export class ApiKeyLookupRepository {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(TENANCY_OPTIONS) private readonly options: TenancyOptions,
  ) {}

  /**
   * Authentication's lookup, unscoped by design: the presented key names its owner, and the guard then
   * checks that owner against the tenant header.
   */
  findByKeyId(keyId: string): Promise<ApiKeyColumns | null> {
    return this.ds.getRepository(this.options.keyEntity).findOneBy({ keyId });
  }

  /** The key locked until the transaction ends: two reissues of one key at once run one after the other. */
  lockByKeyId(keyId: string, tx: Tx): Promise<ApiKeyColumns | null> {
    return txManager(tx)
      .getRepository(this.options.keyEntity)
      .findOne({ where: { keyId }, lock: { mode: 'pessimistic_write' } });
  }

  /** Operators address a key by its public id alone; already revoked stays as it was. */
  async revokeByKeyId(keyId: string): Promise<boolean> {
    const res = await this.ds
      .getRepository(this.options.keyEntity)
      .update({ keyId, revokedAt: IsNull() }, { revokedAt: () => 'now()' });
    return (res.affected ?? 0) > 0;
  }
}
