import { Module, type DynamicModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type DataSourceOptions, type MixedList, type EntitySchema } from 'typeorm';
import { migrateSchema } from './migrate';

export interface ServiceDatabaseOptions {
  url: string;
  schema: string;
  poolMax: number;
  applicationName: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own type
  migrations: MixedList<Function | string>;
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
    extra: { max: o.poolMax, options: `-c search_path=${o.schema}` },
  };
}

/**
 * TypeORM for one service: its own schema, its own migrations run at start (under an advisory lock, so
 * several replicas starting together run them once), `synchronize` never on.
 */
@Module({})
export class PersistenceModule {
  static forRootAsync(opts: {
    inject: unknown[];
    useFactory: (...deps: never[]) => ServiceDatabaseOptions;
  }): DynamicModule {
    return {
      module: PersistenceModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: opts.inject as never[],
          useFactory: ((...deps: never[]) => dataSourceOptions(opts.useFactory(...deps))) as (
            ...args: unknown[]
          ) => DataSourceOptions,
          dataSourceFactory: async (options) => {
            const ds = new DataSource(options as DataSourceOptions);
            await ds.initialize();
            await migrateSchema(ds);
            return ds;
          },
        }),
      ],
      exports: [TypeOrmModule],
    };
  }
}
