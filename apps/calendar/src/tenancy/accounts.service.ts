import { Injectable } from '@nestjs/common';
import type { Account } from './account.entity';
import { AccountsRepository } from './accounts.unscoped.repository';
import type { AccountId } from './tenant-ids';

/** Accounts are created by operators (admin CLI, development seed); the API never creates one. */
@Injectable()
export class AccountsService {
  constructor(private readonly accounts: AccountsRepository) {}

  ensure(id: AccountId, name: string): Promise<Account> {
    return this.accounts.ensure(id, name);
  }
}
