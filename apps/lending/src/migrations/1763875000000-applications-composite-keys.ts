import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The application-side tables whose rows name an application. */
const CHILDREN = [
  'application_status_history',
  'application_checks',
  'application_decisions',
  'external_calls',
];

/**
 * Defence in depth below row-level security (review of issue 12): an application could name another
 * organization's customer, and an application's history, checks, decisions and external calls another
 * organization's application, because their foreign keys were on the id alone. Now each reference
 * carries the organization too, as the customers area's child tables already do, so the database
 * refuses a cross-organization reference whatever the code does.
 */
export class ApplicationsCompositeKeys1763875000000 implements MigrationInterface {
  name = 'ApplicationsCompositeKeys1763875000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE lending.applications ADD CONSTRAINT applications_organization_id_id_key UNIQUE (organization_id, id)`,
    );
    await q.query(`ALTER TABLE lending.applications DROP CONSTRAINT applications_customer_id_fkey`);
    await q.query(`ALTER TABLE lending.applications ADD CONSTRAINT applications_customer_fkey
      FOREIGN KEY (organization_id, customer_id) REFERENCES lending.customers (organization_id, id)`);
    for (const t of CHILDREN) {
      await q.query(`ALTER TABLE lending.${t} DROP CONSTRAINT ${t}_application_id_fkey`);
      await q.query(`ALTER TABLE lending.${t} ADD CONSTRAINT ${t}_application_fkey
        FOREIGN KEY (organization_id, application_id) REFERENCES lending.applications (organization_id, id)`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of CHILDREN) {
      await q.query(`ALTER TABLE lending.${t} DROP CONSTRAINT ${t}_application_fkey`);
      await q.query(`ALTER TABLE lending.${t} ADD CONSTRAINT ${t}_application_id_fkey
        FOREIGN KEY (application_id) REFERENCES lending.applications (id)`);
    }
    await q.query(`ALTER TABLE lending.applications DROP CONSTRAINT applications_customer_fkey`);
    await q.query(`ALTER TABLE lending.applications ADD CONSTRAINT applications_customer_id_fkey
      FOREIGN KEY (customer_id) REFERENCES lending.customers (id)`);
    await q.query(`ALTER TABLE lending.applications DROP CONSTRAINT applications_organization_id_id_key`);
  }
}
