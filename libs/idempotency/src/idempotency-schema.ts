import type { MigrationInterface, QueryRunner } from 'typeorm';

const ident = (schema: string): string => {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`not a plain schema name: ${schema}`);
  return schema;
};

/** The `idempotency_keys` table of a service's schema (IdempotencyKey), after its `organizations`. */
export function idempotencyKeysTableDdl(schema: string): string[] {
  const s = ident(schema);
  return [
    `CREATE TABLE ${s}.idempotency_keys (
      organization_id text NOT NULL
        CONSTRAINT idempotency_keys_organization_id_fkey REFERENCES ${s}.organizations (id),
      key text NOT NULL,
      request_hash text NOT NULL,
      route text NOT NULL,
      status_code integer NOT NULL,
      response_body text NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      PRIMARY KEY (organization_id, key),
      CONSTRAINT idempotency_keys_status_check CHECK (status_code BETWEEN 200 AND 299))`,
    `CREATE INDEX idempotency_keys_org_expires_idx ON ${s}.idempotency_keys (organization_id, expires_at)`,
  ];
}

/**
 * `<schema>.idempotency_hold(org, key, wait_ms)`: holds the organization's key (a transaction advisory
 * lock, so a request that crashes frees it with its connection), waiting up to `wait_ms` for a request
 * that holds it (`lock_timeout` raised for that wait only; 0: no wait at all), then reads the key's
 * stored answer, in one round trip. Answers `{"held": false}` when the key stayed held, else
 * `{"held": true, "stored": <row or null>}`. SECURITY INVOKER: row-level security applies to its read.
 * Two keys that hash alike only make one wait for the other.
 */
export function idempotencyHoldFunctionDdl(schema: string): string {
  const s = ident(schema);
  return `CREATE OR REPLACE FUNCTION ${s}.idempotency_hold(org text, idem_key text, wait_ms integer)
    RETURNS jsonb LANGUAGE plpgsql VOLATILE AS $$
    DECLARE
      lock_key bigint := hashtextextended('${s}-idempotency:' || org || ':' || idem_key, 0);
      stored jsonb;
    BEGIN
      IF NOT pg_try_advisory_xact_lock(lock_key) THEN
        IF wait_ms <= 0 THEN
          RETURN jsonb_build_object('held', false);
        END IF;
        PERFORM set_config('lock_timeout', wait_ms || 'ms', true);
        BEGIN
          PERFORM pg_advisory_xact_lock(lock_key);
        EXCEPTION WHEN lock_not_available THEN
          SET LOCAL lock_timeout TO DEFAULT;
          RETURN jsonb_build_object('held', false);
        END;
        SET LOCAL lock_timeout TO DEFAULT;
      END IF;
      SELECT jsonb_build_object('request_hash', k.request_hash, 'route', k.route,
               'status_code', k.status_code, 'response_body', k.response_body,
               'created_at', k.created_at, 'expires_at', k.expires_at)
        INTO stored
        FROM ${s}.idempotency_keys k
       WHERE k.organization_id = org AND k.key = idem_key;
      RETURN jsonb_build_object('held', true, 'stored', stored);
    END $$`;
}

/**
 * A service's migration to the shared idempotency keys: creates the table unless `tableExists`, and
 * creates (or replaces) `idempotency_hold`; `after` runs last (e.g. copying an older table's rows).
 * `down` drops what `up` created; a function that existed before (`functionExisted`, same signature
 * and the same meaning for every wait its callers passed) stays.
 */
export function idempotencyKeysMigration(
  name: string,
  schema: string,
  opts: { tableExists?: boolean; functionExisted?: boolean; after?: (q: QueryRunner) => Promise<void> } = {},
): new () => MigrationInterface {
  return class IdempotencyKeys implements MigrationInterface {
    name = name;

    async up(q: QueryRunner): Promise<void> {
      if (!opts.tableExists) for (const ddl of idempotencyKeysTableDdl(schema)) await q.query(ddl);
      await q.query(idempotencyHoldFunctionDdl(schema));
      await opts.after?.(q);
    }

    async down(q: QueryRunner): Promise<void> {
      if (!opts.functionExisted)
        await q.query(`DROP FUNCTION ${ident(schema)}.idempotency_hold(text, text, integer)`);
      if (!opts.tableExists) await q.query(`DROP TABLE ${ident(schema)}.idempotency_keys`);
    }
  };
}
