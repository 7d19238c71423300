import type { MigrationInterface, QueryRunner } from 'typeorm';
import { quoteSchema } from '@platform/outbox';
import { service } from '@platform/registry';

const S = quoteSchema(service('public-status').schema);

/**
 * Automated state sources of issue 11: HTTP(S) monitoring checks per resource with their results
 * (bounded retention), and `resources.platform_service`, the libs/registry app whose health reports
 * set a resource's state (docs/public-status-api.md, "Monitoring checks" and "Platform health").
 */
export class Monitoring1763810000000 implements MigrationInterface {
  name = 'Monitoring1763810000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ${S}.resources ADD COLUMN platform_service text`);
    await q.query(
      `CREATE INDEX resources_platform_service_idx ON ${S}.resources (platform_service)
        WHERE platform_service IS NOT NULL`,
    );
    // next_run_at is the slot a replica claims (and moves forward in the same statement); lease_token
    // identifies the claim, so only the replica that claimed a slot can record its result.
    await q.query(`CREATE TABLE ${S}.monitoring_checks (
      id text PRIMARY KEY,
      business_id text NOT NULL REFERENCES ${S}.businesses (id),
      resource_id uuid NOT NULL REFERENCES ${S}.resources (id),
      name text NOT NULL,
      url text NOT NULL,
      method text NOT NULL CHECK (method IN ('GET', 'HEAD')),
      interval_s integer NOT NULL CHECK (interval_s BETWEEN 10 AND 86400),
      timeout_ms integer NOT NULL CHECK (timeout_ms BETWEEN 100 AND 60000),
      expect_status_min integer NOT NULL CHECK (expect_status_min BETWEEN 100 AND 599),
      expect_status_max integer NOT NULL CHECK (expect_status_max BETWEEN expect_status_min AND 599),
      body_contains text,
      failure_threshold integer NOT NULL CHECK (failure_threshold BETWEEN 1 AND 20),
      recovery_threshold integer NOT NULL CHECK (recovery_threshold BETWEEN 1 AND 20),
      failure_state text NOT NULL
        CHECK (failure_state IN ('degraded_performance', 'partial_outage', 'major_outage')),
      slow_ms integer CHECK (slow_ms BETWEEN 1 AND 60000),
      enabled boolean NOT NULL DEFAULT true,
      status text NOT NULL DEFAULT 'unknown' CHECK (status IN ('unknown', 'up', 'slow', 'down')),
      streak_outcome text CHECK (streak_outcome IN ('up', 'slow', 'down')),
      streak integer NOT NULL DEFAULT 0,
      next_run_at timestamptz NOT NULL DEFAULT now(),
      lease_token uuid,
      lease_until timestamptz,
      last_run_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK (timeout_ms < interval_s * 1000))`);
    await q.query(`CREATE INDEX monitoring_checks_business_idx ON ${S}.monitoring_checks (business_id)`);
    await q.query(`CREATE INDEX monitoring_checks_resource_idx ON ${S}.monitoring_checks (resource_id)`);
    await q.query(
      `CREATE INDEX monitoring_checks_due_idx ON ${S}.monitoring_checks (next_run_at) WHERE enabled`,
    );
    // One result per check and slot: the database itself refuses a second run of the same slot.
    await q.query(`CREATE TABLE ${S}.check_results (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      check_id text NOT NULL REFERENCES ${S}.monitoring_checks (id) ON DELETE CASCADE,
      business_id text NOT NULL,
      slot timestamptz NOT NULL,
      at timestamptz NOT NULL,
      outcome text NOT NULL CHECK (outcome IN ('up', 'slow', 'down')),
      status_code integer,
      error text,
      latency_ms integer NOT NULL,
      UNIQUE (check_id, slot))`);
    await q.query(`CREATE INDEX check_results_check_at_idx ON ${S}.check_results (check_id, at DESC)`);
    await q.query(`CREATE INDEX check_results_at_idx ON ${S}.check_results (at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ${S}.check_results`);
    await q.query(`DROP TABLE ${S}.monitoring_checks`);
    await q.query(`ALTER TABLE ${S}.resources DROP COLUMN platform_service`);
  }
}
