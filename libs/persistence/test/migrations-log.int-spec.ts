import { randomBytes } from 'node:crypto';
import { Module, type DynamicModule, type LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Client } from 'pg';
import { DataSource, type MigrationInterface, type QueryRunner } from 'typeorm';
import { DataServiceConfig, TypedConfigModule } from '@platform/config';
import { PersistenceModule, migrationsAppliedAtStart } from '../src';

class MigrationsLogConfig extends DataServiceConfig {}

class CreateThings1700000000001 implements MigrationInterface {
  name = 'CreateThings1700000000001';
  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE TABLE mlog.things (id int PRIMARY KEY)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE mlog.things');
  }
}

class ThingsName1700000000002 implements MigrationInterface {
  name = 'ThingsName1700000000002';
  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE mlog.things ADD COLUMN name text');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE mlog.things DROP COLUMN name');
  }
}

class ThingsIndex1700000000003 implements MigrationInterface {
  name = 'ThingsIndex1700000000003';
  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE INDEX things_name ON mlog.things (name)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX mlog.things_name');
  }
}

/** Every log line of one start, as `[context] message`. */
class Lines implements LoggerService {
  readonly lines: string[] = [];
  log(message: unknown, context?: string) {
    this.lines.push(`[${context}] ${String(message)}`);
  }
  error(message: unknown, context?: string) {
    this.lines.push(`[${context}] error: ${String(message)}`);
  }
  warn(message: unknown, context?: string) {
    this.lines.push(`[${context}] warn: ${String(message)}`);
  }
}

/*
 * A few lines of harness instead of @platform/testing: a data-access lib may not depend on the testing
 * lib (nx boundaries). One database of the integration harness's server for this file.
 */
async function admin<R>(fn: (c: Client) => Promise<R>): Promise<R> {
  const c = new Client({ connectionString: process.env.TEST_PG_SERVER_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

describe('PersistenceModule logs the migrations each start applied', () => {
  const db = `migrations_log_${randomBytes(4).toString('hex')}`;
  let url: string;

  beforeAll(async () => {
    await admin((c) => c.query(`CREATE DATABASE "${db}"`));
    const u = new URL(process.env.TEST_PG_SERVER_URL as string);
    u.pathname = `/${db}`;
    url = u.toString();
  });

  afterAll(async () => {
    await admin((c) => c.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`));
  });

  /** Starts an app with these migrations, as each app's main.ts does, and returns its log lines. */
  async function start(
    migrations: (new () => MigrationInterface)[],
  ): Promise<{ lines: string[]; applied: string[] }> {
    @Module({})
    class AppModule {
      static register(): DynamicModule {
        return {
          module: AppModule,
          imports: [
            TypedConfigModule.forRoot(MigrationsLogConfig, { DATABASE_URL: url }),
            PersistenceModule.forService(MigrationsLogConfig, { schema: 'mlog', entities: [], migrations }),
          ],
        };
      }
    }
    const logger = new Lines();
    const app = await NestFactory.createApplicationContext(AppModule.register(), {
      logger,
      abortOnError: false,
    });
    try {
      return { lines: logger.lines, applied: migrationsAppliedAtStart(app.get(DataSource)) };
    } finally {
      await app.close();
    }
  }

  const migrationLines = (lines: string[]) => lines.filter((l) => l.startsWith('[Migrations]'));

  it('names what it applied on the first start, "none" when there was nothing left, and only the new one after', async () => {
    const first = await start([CreateThings1700000000001, ThingsName1700000000002]);
    expect(migrationLines(first.lines)).toEqual([
      '[Migrations] migrations applied to schema mlog: CreateThings1700000000001, ThingsName1700000000002',
    ]);
    expect(first.applied).toEqual(['CreateThings1700000000001', 'ThingsName1700000000002']);

    const again = await start([CreateThings1700000000001, ThingsName1700000000002]);
    expect(migrationLines(again.lines)).toEqual(['[Migrations] migrations applied to schema mlog: none']);

    const release = await start([
      CreateThings1700000000001,
      ThingsName1700000000002,
      ThingsIndex1700000000003,
    ]);
    expect(migrationLines(release.lines)).toEqual([
      '[Migrations] migrations applied to schema mlog: ThingsIndex1700000000003',
    ]);
  });
});
