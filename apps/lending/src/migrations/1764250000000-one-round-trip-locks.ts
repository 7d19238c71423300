import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Two locks whose reads must come after them, each in one round trip (issue 23, "Speed"): a PL/pgSQL
 * function's queries take a new snapshot after its lock is granted, which one SQL statement cannot
 * (its snapshot is older than the lock it waits for).
 *
 * - `lending.idempotency_hold(org, key, wait_ms)`: holds the organization's Idempotency-Key (a
 *   transaction advisory lock; a key held by a request still running is waited for up to `wait_ms`,
 *   `lock_timeout` raised for that wait only), then reads the key's stored answer. Answers
 *   `{"held": false}` when the wait ran out, else `{"held": true, "stored": <row or null>}`.
 * - `lending.accounting_day_open(org)`: the organization's accounting day lock, shared (a day close
 *   takes it exclusively), then the last closed day.
 *
 * Both run as the caller (SECURITY INVOKER), so row-level security applies to their reads.
 */
export class OneRoundTripLocks1764250000000 implements MigrationInterface {
  name = 'OneRoundTripLocks1764250000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE FUNCTION lending.idempotency_hold(org text, idem_key text, wait_ms integer)
      RETURNS jsonb LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        lock_key bigint := hashtextextended('lending-idempotency:' || org || ':' || idem_key, 0);
        stored jsonb;
      BEGIN
        IF NOT pg_try_advisory_xact_lock(lock_key) THEN
          PERFORM set_config('lock_timeout', greatest(wait_ms, 1) || 'ms', true);
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
          FROM lending.idempotency_keys k
         WHERE k.organization_id = org AND k.key = idem_key;
        RETURN jsonb_build_object('held', true, 'stored', stored);
      END $$`);
    await q.query(`CREATE FUNCTION lending.accounting_day_open(org text)
      RETURNS text LANGUAGE plpgsql VOLATILE AS $$
      BEGIN
        PERFORM pg_advisory_xact_lock_shared(hashtextextended('lending-accounting-day:' || org, 0));
        RETURN (SELECT max(business_date)::text FROM lending.accounting_days WHERE organization_id = org);
      END $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP FUNCTION lending.accounting_day_open(text)');
    await q.query('DROP FUNCTION lending.idempotency_hold(text, text, integer)');
  }
}
