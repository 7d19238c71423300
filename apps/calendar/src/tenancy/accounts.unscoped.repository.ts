// Unscoped: the accounts are the tenants themselves, addressed by their own id.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Account } from './account.entity';
import type { AccountId } from './tenant-ids';

/** The accounts (tenants) themselves, so not tenant-scoped. */
@Injectable()
export class AccountsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async ensure(id: AccountId, name: string): Promise<Account> {
    await this.ds.getRepository(Account).upsert({ id, name }, ['id']);
    return this.ds.getRepository(Account).findOneByOrFail({ id });
  }
}
