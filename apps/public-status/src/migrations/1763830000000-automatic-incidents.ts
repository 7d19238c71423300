import type { MigrationInterface, QueryRunner } from 'typeorm';
import { quoteSchema } from '@platform/outbox';
import { service } from '@platform/registry';

const S = quoteSchema(service('public-status').schema);

/**
 * Automatic incidents (decision 0023, "Automatic incidents"): a resource may ask for an incident to be
 * opened when its checks or its platform app's health put it into an outage, and resolved when they
 * bring it back. `incidents.origin` tells those incidents from staff's; the partial index finds the
 * open automatic incident of a resource in the transaction of the state change.
 */
export class AutomaticIncidents1763830000000 implements MigrationInterface {
  name = 'AutomaticIncidents1763830000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ${S}.resources ADD COLUMN automatic_incidents boolean NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE ${S}.incidents ADD COLUMN origin text NOT NULL DEFAULT 'staff'
      CONSTRAINT incidents_origin_check CHECK (origin IN ('staff', 'automatic'))`);
    await q.query(`CREATE INDEX incidents_open_automatic_idx ON ${S}.incidents (business_id)
      WHERE origin = 'automatic' AND status <> 'resolved'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX ${S}.incidents_open_automatic_idx`);
    await q.query(`ALTER TABLE ${S}.incidents DROP COLUMN origin`);
    await q.query(`ALTER TABLE ${S}.resources DROP COLUMN automatic_incidents`);
  }
}
