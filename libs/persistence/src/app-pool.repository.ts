import { Injectable, Module } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';

/**
 * The app's own pg Pool (TypeORM's postgres driver keeps it as `master`), for libraries that speak
 * `pg` directly (libs/webhooks' worker and stores): one pool per app, no second set of connections.
 */
@Injectable()
export class AppPoolRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  pool(): Pool {
    return (this.ds.driver as unknown as { master: Pool }).master;
  }
}

@Module({ providers: [AppPoolRepository], exports: [AppPoolRepository] })
export class AppPoolModule {}
