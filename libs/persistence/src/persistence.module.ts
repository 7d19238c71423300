import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type DataSourceOptions, type MixedList, type EntitySchema } from 'typeorm';
import type { DataServiceConfig } from '@platform/config';
import { logMigrationsApplied, migrateSchema } from './migrate';
import { poolRecordingPg } from './pg-pool';
import { trackDataSourcePool } from './pool-metrics';
import { Transactions } from './transaction';

/** What a service owns in PostgreSQL: one schema, its entities and its migrations. */
export interface ServiceDatabase {
  /**
   * The service's schema. Fixed per service (the service registry declares it) and not configurable:
   * migrations, raw SQL and the relay all name it, so a setting could only split one write across two
   * schemas. Another environment gets another database, not another schema name.
   */
  schema: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own type
  migrations: MixedList<Function | string>;
}

export interface ServiceDatabaseOptions extends ServiceDatabase {
  url: string;
  poolMax: number;
  applicationName: string;
}

export function dataSourceOptions(o: ServiceDatabaseOptions): DataSourceOptions {
  return {
    type: 'postgres',
    url: o.url,
    schema: o.schema,
    entities: o.entities,
    migrations: o.migrations,
    migrationsTableName: 'migrations',
    // Never let the ORM change a schema: only reviewed migrations do.
    synchronize: false,
    migrationsRun: false,
    applicationName: o.applicationName,
    // Unqualified table names in SQL resolve to the service's own schema.
    extra: { max: o.poolMax, options: `-c search_path=${o.schema}` },
    // node-postgres whose Pool records itself (poolOf): for the libraries that speak pg directly.
    driver: poolRecordingPg(),
  };
}

const appliedAtStart = new WeakMap<DataSource, string[]>();

/** Migrations the service's own start-up applied (what `admin migrate` reports). */
export function migrationsAppliedAtStart(ds: DataSource): string[] {
  return appliedAtStart.get(ds) ?? [];
}

/**
 * TypeORM for one service: its own schema, its own migrations run at start (under an advisory lock, so
 * several replicas starting together run them once), `synchronize` never on. Provides `Transactions`,
 * the unit of work services open; the DataSource itself is for repositories only.
 */
@Module({})
export class PersistenceModule {
  static forService<C extends DataServiceConfig>(
    config: new () => C,
    database: ServiceDatabase,
    opts: { name: string; poolMax?: number } = { name: database.schema },
  ): DynamicModule {
    return {
      module: PersistenceModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [config],
          useFactory: (c: C) =>
            dataSourceOptions({
              ...database,
              url: c.DATABASE_URL,
              poolMax: opts.poolMax ?? c.DB_POOL_MAX,
              applicationName: `${opts.name}-${c.INSTANCE_ID}`,
            }),
          dataSourceFactory: async (options) => {
            const ds = new DataSource(options as DataSourceOptions);
            await ds.initialize();
            const applied = await migrateSchema(ds);
            appliedAtStart.set(ds, applied);
            logMigrationsApplied(database.schema, applied);
            trackDataSourcePool(opts.name, ds);
            return ds;
          },
        }),
      ],
      providers: [Transactions],
      exports: [TypeOrmModule, Transactions],
    };
  }
}
