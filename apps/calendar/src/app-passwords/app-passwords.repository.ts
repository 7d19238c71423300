import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PersonSecretsRepository } from '../tenancy/person-secrets.repository';
import { AppPassword } from './app-password.entity';

export type NewAppPassword = Pick<AppPassword, 'subject' | 'label' | 'login' | 'secretHash'>;

/**
 * A person's app passwords on one account (Basic login's lookup by username alone:
 * app-password-logins.unscoped.repository.ts). Every method names the person as well: one person never
 * sees or revokes another's.
 */
@Injectable()
export class AppPasswordsRepository extends PersonSecretsRepository<AppPassword> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, AppPassword, 'app_passwords');
  }
}
