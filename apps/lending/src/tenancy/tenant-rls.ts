/**
 * Row-level security of lending's tenant tables (decision 0025): one role and one setting, named here
 * once for the migrations (`tenantTableDdl`) and for the transactions that switch to them (TenantData).
 */

/** The role a tenant transaction runs as: row-level security always applies to it. */
export const TENANT_ROLE = 'lending_tenant';
/** The per-transaction setting holding the request's organization. */
export const TENANT_SETTING = 'lending.organization_id';

/**
 * A tenant table's isolation: rows are visible and writable only when their `organization_id` is the
 * transaction's organization. Outside a tenant transaction the setting is empty, which matches no row.
 * FORCE applies the policy to the table's owner too; superusers bypass it, which is why tenant
 * transactions also switch to TENANT_ROLE.
 */
export function tenantTableDdl(table: string, schema = 'lending'): string[] {
  const t = `${schema}.${table}`;
  const mine = `organization_id = current_setting('${TENANT_SETTING}', true)`;
  return [
    `ALTER TABLE ${t} ENABLE ROW LEVEL SECURITY`,
    `ALTER TABLE ${t} FORCE ROW LEVEL SECURITY`,
    `CREATE POLICY tenant_isolation ON ${t} USING (${mine}) WITH CHECK (${mine})`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ${t} TO ${TENANT_ROLE}`,
  ];
}
