import { Logger } from '@nestjs/common';
import type { DataSource } from 'typeorm';

/** Creates the service's schema and applies pending migrations, once across concurrent replicas. */
export async function migrateSchema(ds: DataSource): Promise<string[]> {
  const schema = (ds.options as { schema?: string }).schema ?? 'public';
  const runner = ds.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock(hashtext($1))', [`migrations:${schema}`]);
    await runner.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    const applied = await ds.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await runner
      .query('SELECT pg_advisory_unlock(hashtext($1))', [`migrations:${schema}`])
      .catch(() => undefined);
    await runner.release();
  }
}

/**
 * The line an app logs at start about its schema's migrations (docs/runbooks/deploy.md): what this
 * replica applied, or `none` when another replica or an earlier release already had.
 */
export function migrationsLine(schema: string, applied: readonly string[]): string {
  return `migrations applied to schema ${schema}: ${applied.length ? applied.join(', ') : 'none'}`;
}

export function logMigrationsApplied(
  schema: string,
  applied: readonly string[],
  logger: Pick<Logger, 'log'> = new Logger('Migrations'),
): void {
  logger.log(migrationsLine(schema, applied));
}
