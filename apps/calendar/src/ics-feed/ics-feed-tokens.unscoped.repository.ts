// Unscoped: a feed token names its account (the token is the credential), so it is looked up before any account is known.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { IcsFeed } from './ics-feed.entity';

/** `ics_feeds` by the token's public id across accounts; the feed is then read as the row's account. */
@Injectable()
export class IcsFeedTokensRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** One unique-index lookup; revoked rows too (the caller refuses them like an unknown token). */
  byKeyId(keyId: string): Promise<IcsFeed | null> {
    return this.ds.getRepository(IcsFeed).findOneBy({ keyId });
  }
}
