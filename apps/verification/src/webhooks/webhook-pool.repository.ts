import { Injectable, Module } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';

/**
 * The app's pg Pool (TypeORM's postgres driver keeps it as `master`) for libs/webhooks, as in
 * public-status: one pool per app, no second set of connections.
 */
@Injectable()
export class WebhookPoolRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  pool(): Pool {
    return (this.ds.driver as unknown as { master: Pool }).master;
  }
}

@Module({ providers: [WebhookPoolRepository], exports: [WebhookPoolRepository] })
export class WebhookPoolModule {}
