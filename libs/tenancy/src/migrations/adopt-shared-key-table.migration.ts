import type { MigrationInterface, QueryRunner } from 'typeorm';

const IDENT = /^[a-z_][a-z0-9_]*$/;

function ident(name: string): string {
  if (!IDENT.test(name)) throw new Error(`unsafe identifier: ${name}`);
  return `"${name}"`;
}

export interface LegacyKeyTable {
  table: string;
  ownerColumn: string;
  hasScopes: boolean;
  hasIsDefault: boolean;
}

/**
 * Brings a key table created before the shared one (lending `partner_keys`, calendar `product_keys`,
 * verification `api_keys` with `organization_id`) to exactly what `apiKeyTablesDdl` creates, keeping
 * every key and its hash: the table, owner column and constraints renamed, the missing columns added.
 */
export function adoptSharedKeyTableDdl(schema: string, legacy: LegacyKeyTable): string[] {
  const s = ident(schema);
  const t = `${s}.api_keys`;
  const renamed = legacy.table !== 'api_keys';
  return [
    ...(renamed ? [`ALTER TABLE ${s}.${ident(legacy.table)} RENAME TO api_keys`] : []),
    `ALTER TABLE ${t} RENAME COLUMN ${ident(legacy.ownerColumn)} TO owner_id`,
    ...(renamed
      ? [
          `ALTER TABLE ${t} RENAME CONSTRAINT ${ident(`${legacy.table}_pkey`)} TO api_keys_pkey`,
          `ALTER TABLE ${t} RENAME CONSTRAINT ${ident(`${legacy.table}_key_id_key`)} TO api_keys_key_id_key`,
        ]
      : []),
    `ALTER TABLE ${t} RENAME CONSTRAINT ${ident(`${legacy.table}_${legacy.ownerColumn}_fkey`)} TO api_keys_owner_id_fkey`,
    legacy.hasScopes
      ? `ALTER TABLE ${t} ALTER COLUMN scopes SET DEFAULT '{}'`
      : `ALTER TABLE ${t} ADD COLUMN scopes text[] NOT NULL DEFAULT '{}'`,
    ...(legacy.hasIsDefault ? [] : [`ALTER TABLE ${t} ADD COLUMN is_default boolean NOT NULL DEFAULT false`]),
    `ALTER TABLE ${t} ADD COLUMN expires_at timestamptz`,
    `CREATE INDEX api_keys_owner_idx ON ${t} (owner_id)`,
  ];
}

/**
 * The migration that moves a service's keys to the shared table. Databases created since the shared
 * table exists already have it (their first migration uses `apiKeyTablesDdl`), so it changes only a
 * database that still holds the legacy table.
 */
export function adoptSharedKeyTableMigration(
  name: string,
  schema: string,
  legacy: LegacyKeyTable,
): new () => MigrationInterface {
  return class AdoptSharedKeyTable implements MigrationInterface {
    name = name;

    async up(q: QueryRunner): Promise<void> {
      const rows = (await q.query(
        `SELECT 1 FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 AND column_name = $3`,
        [schema, legacy.table, legacy.ownerColumn],
      )) as unknown[];
      if (!rows.length) return;
      for (const ddl of adoptSharedKeyTableDdl(schema, legacy)) await q.query(ddl);
    }

    async down(): Promise<void> {
      throw new Error(`${name} is not reversible: restore from a backup instead`);
    }
  };
}
