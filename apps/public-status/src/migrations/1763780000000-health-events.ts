import type { MigrationInterface, QueryRunner } from 'typeorm';
import { quoteSchema } from '@platform/outbox';
import { service } from '@platform/registry';

const S = quoteSchema(service('public-status').schema);

/**
 * Health reports of the platform's own apps (`platform.service.health-reported.v1`, decision 0021):
 * the last report of each instance, each service's current state, and its append-only history of
 * up/down transitions (from reports, and from silence detected by any replica).
 */
export class HealthEvents1763780000000 implements MigrationInterface {
  name = 'HealthEvents1763780000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE ${S}.health_instances (
      service text NOT NULL,
      instance text NOT NULL,
      ready boolean NOT NULL,
      failing_checks text[] NOT NULL DEFAULT '{}',
      checks jsonb NOT NULL DEFAULT '{}',
      reported_at timestamptz NOT NULL,
      received_at timestamptz NOT NULL,
      PRIMARY KEY (service, instance))`);
    // One row per service, locked by whoever changes its state: the consumer applying a report and the
    // silence check (a single UPDATE ... WHERE state = 'up' AND last_ready_at < cutoff) serialise on it.
    await q.query(`CREATE TABLE ${S}.health_services (
      service text PRIMARY KEY,
      state text NOT NULL CHECK (state IN ('up', 'down')),
      since timestamptz NOT NULL,
      reason text NOT NULL CHECK (reason IN ('reported', 'silent')),
      last_report_at timestamptz NOT NULL,
      last_ready_at timestamptz)`);
    await q.query(`CREATE TABLE ${S}.health_transitions (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      service text NOT NULL,
      state text NOT NULL CHECK (state IN ('up', 'down')),
      reason text NOT NULL CHECK (reason IN ('reported', 'silent')),
      failing_checks text[] NOT NULL DEFAULT '{}',
      at timestamptz NOT NULL,
      recorded_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`CREATE INDEX health_transitions_service_at ON ${S}.health_transitions (service, at)`);
    await q.query(
      `CREATE INDEX health_services_up_last_ready ON ${S}.health_services (last_ready_at) WHERE state = 'up'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE ${S}.health_transitions`);
    await q.query(`DROP TABLE ${S}.health_services`);
    await q.query(`DROP TABLE ${S}.health_instances`);
  }
}
