import { DataSource } from 'typeorm';
import { dataSourceOptions, migrateSchema, type ServiceDatabase } from '@platform/persistence';
import { createTestDatabase } from './database';

/**
 * Applies a service's migrations to a fresh database, then asks TypeORM what it would change to make
 * the schema match the entities. Anything it lists means entities and migrations disagree: a column
 * type, a missing index, a constraint only one side knows.
 */
export async function schemaDrift(database: ServiceDatabase): Promise<string[]> {
  const db = await createTestDatabase(`drift_${database.schema}`);
  const ds = new DataSource(
    dataSourceOptions({ ...database, url: db.url, poolMax: 2, applicationName: 'schema-drift' }),
  );
  await ds.initialize();
  try {
    await migrateSchema(ds);
    const sql = await ds.driver.createSchemaBuilder().log();
    return sql.upQueries.map((q) => q.query.replace(/\s+/g, ' ').trim());
  } finally {
    await ds.destroy();
    await db.drop();
  }
}
