import { Injectable, Module } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { poolOf } from './pg-pool';

/**
 * The app's own pg Pool (the one its DataSource created, poolOf), for libraries that speak `pg`
 * directly (libs/webhooks' worker and stores): one pool per app, no second set of connections.
 */
@Injectable()
export class AppPoolRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  pool(): Pool {
    const pool = poolOf(this.ds);
    if (!pool) throw new Error('the DataSource has no recorded pool: make it with dataSourceOptions');
    return pool;
  }
}

@Module({ providers: [AppPoolRepository], exports: [AppPoolRepository] })
export class AppPoolModule {}
