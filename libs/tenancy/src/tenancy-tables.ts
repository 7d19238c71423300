const IDENT = /^[a-z_][a-z0-9_]*$/;

function ident(name: string): string {
  if (!IDENT.test(name)) throw new Error(`unsafe identifier: ${name}`);
  return `"${name}"`;
}

/**
 * DDL of a service's key tables, for its first migration (like `outboxTablesDdl`): the owner table
 * (skip with `createOwnerTable: false` when the service defines it itself, as calendar's `products`)
 * and `api_keys`. Matches the entities `Organization` and `apiKeyEntity`.
 */
export function apiKeyTablesDdl(
  schema: string,
  opts: { ownerTable: string; createOwnerTable?: boolean },
): string[] {
  const s = ident(schema);
  const owner = `${s}.${ident(opts.ownerTable)}`;
  return [
    ...(opts.createOwnerTable === false
      ? []
      : [
          `CREATE TABLE ${owner} (
            id text PRIMARY KEY,
            name text NOT NULL,
            created_at timestamptz NOT NULL DEFAULT now())`,
        ]),
    `CREATE TABLE ${s}.api_keys (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      key_id text NOT NULL,
      owner_id text NOT NULL,
      hash text NOT NULL,
      label text NOT NULL,
      scopes text[] NOT NULL DEFAULT '{}',
      is_default boolean NOT NULL DEFAULT false,
      expires_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT api_keys_key_id_key UNIQUE (key_id),
      CONSTRAINT api_keys_owner_id_fkey FOREIGN KEY (owner_id) REFERENCES ${owner}(id))`,
    `CREATE INDEX api_keys_owner_idx ON ${s}.api_keys (owner_id)`,
  ];
}

export function dropApiKeyTablesDdl(
  schema: string,
  opts: { ownerTable: string; createOwnerTable?: boolean },
): string[] {
  const s = ident(schema);
  return [
    `DROP TABLE ${s}.api_keys`,
    ...(opts.createOwnerTable === false ? [] : [`DROP TABLE ${s}.${ident(opts.ownerTable)}`]),
  ];
}
