import { Injectable, Module } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';

/** The app's pg Pool (TypeORM's postgres driver keeps it as `master`), for libs/webhooks: one pool per app. */
@Injectable()
export class AppPoolRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  pool(): Pool {
    return (this.ds.driver as unknown as { master: Pool }).master;
  }
}

@Module({ providers: [AppPoolRepository], exports: [AppPoolRepository] })
export class AppPoolModule {}
