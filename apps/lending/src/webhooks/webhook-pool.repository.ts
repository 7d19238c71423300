import { Injectable, Module } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';

/**
 * The app's pg Pool (TypeORM's postgres driver keeps it as `master`) for libs/webhooks' worker, as in
 * verification: one pool per app, no second set of connections. The worker claims due deliveries of
 * every organization at once, as the tables' owner (the webhook tables' row-level security binds the
 * tenant role only, migration 1764020000000).
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
