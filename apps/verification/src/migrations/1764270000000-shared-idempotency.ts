import type { MigrationInterface, QueryRunner } from 'typeorm';
import { idempotencyHoldFunctionDdl, idempotencyKeysTableDdl } from '@platform/idempotency';

/**
 * Case creation's Idempotency-Keys move to @platform/idempotency (the table and hold function every
 * service shares): `verification.case_idempotency_keys` becomes `verification.idempotency_keys`, each
 * key's stored answer the JSON `{"caseId": ...}` with status 201. A key stored before this migration
 * keeps its old request hash (of the validated fields only), which the library's hash of the whole
 * request does not equal: a repeat across the upgrade, within the key's 24 hours, answers 422
 * IDEMPOTENCY_KEY_REUSED and creates nothing (never a second case).
 */
export class SharedIdempotency1764270000000 implements MigrationInterface {
  name = 'SharedIdempotency1764270000000';

  async up(q: QueryRunner): Promise<void> {
    for (const ddl of idempotencyKeysTableDdl('verification')) await q.query(ddl);
    await q.query(idempotencyHoldFunctionDdl('verification'));
    await q.query(`INSERT INTO verification.idempotency_keys
        (organization_id, key, request_hash, route, status_code, response_body, created_at, expires_at)
      SELECT organization_id, key, request_hash, 'POST /api/v1/verification-cases', 201,
             json_build_object('caseId', case_id)::text, created_at, expires_at
        FROM verification.case_idempotency_keys`);
    await q.query('DROP TABLE verification.case_idempotency_keys');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE verification.case_idempotency_keys (
      organization_id text NOT NULL,
      key text NOT NULL,
      request_hash text NOT NULL,
      case_id uuid NOT NULL,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      CONSTRAINT case_idempotency_keys_pkey PRIMARY KEY (organization_id, key),
      CONSTRAINT case_idempotency_keys_organization_id_fkey FOREIGN KEY (organization_id)
        REFERENCES verification.organizations (id),
      CONSTRAINT case_idempotency_keys_case_id_fkey FOREIGN KEY (case_id)
        REFERENCES verification.verification_cases (id))`);
    await q.query(
      `CREATE INDEX case_idempotency_keys_expires_idx ON verification.case_idempotency_keys (expires_at)`,
    );
    await q.query(`INSERT INTO verification.case_idempotency_keys
        (organization_id, key, request_hash, case_id, created_at, expires_at)
      SELECT organization_id, key, request_hash, (response_body::json ->> 'caseId')::uuid, created_at, expires_at
        FROM verification.idempotency_keys`);
    await q.query('DROP FUNCTION verification.idempotency_hold(text, text, integer)');
    await q.query('DROP TABLE verification.idempotency_keys');
  }
}
