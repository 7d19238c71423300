import { withClient } from './database';

/**
 * Tables of `schema` with a `column` (the service's tenant column) that lack row-level security,
 * its FORCE, or the `tenant_isolation` policy (decision 0032): what a tenant-isolation test expects
 * to be empty, apart from the exceptions it names with their reasons.
 */
export function tablesWithoutTenantPolicy(url: string, schema: string, column: string): Promise<string[]> {
  return withClient(url, async (c) => {
    const { rows } = await c.query<{ table: string }>(
      `SELECT t.relname AS table
         FROM pg_class t JOIN pg_namespace n ON n.oid = t.relnamespace
        WHERE n.nspname = $1 AND t.relkind = 'r'
          AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = t.oid AND a.attname = $2 AND NOT a.attisdropped)
          AND NOT (t.relrowsecurity AND t.relforcerowsecurity
                   AND EXISTS (SELECT 1 FROM pg_policy p WHERE p.polrelid = t.oid AND p.polname = 'tenant_isolation'))
        ORDER BY 1`,
      [schema, column],
    );
    return rows.map((r) => r.table);
  });
}

/** Counts the rows of `table` as the schema's tenant role would, with no tenant set (a raw connection). */
export function countAsTenantRoleWithoutTenant(url: string, schema: string, table: string): Promise<number> {
  return withClient(url, async (c) => {
    await c.query('BEGIN');
    try {
      await c.query(`SET LOCAL ROLE ${schema}_tenant`);
      const { rows } = await c.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${schema}.${table}`);
      return rows[0].n;
    } finally {
      await c.query('ROLLBACK');
    }
  });
}
