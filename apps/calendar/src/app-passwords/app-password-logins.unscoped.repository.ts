// Unscoped: a Basic username names its account and person (authentication), so it is looked up before any account is known.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppPassword } from './app-password.entity';

/** `app_passwords` by login across accounts; the authenticator then acts as the row's account. */
@Injectable()
export class AppPasswordLoginsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** One unique-index lookup; revoked rows too (the caller refuses them like a wrong password). */
  byLogin(login: string): Promise<AppPassword | null> {
    return this.ds.getRepository(AppPassword).findOneBy({ login });
  }
}
