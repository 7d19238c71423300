import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Integration grants given by account owners, and team membership for team views. */
export class GrantsTeams1763711000000 implements MigrationInterface {
  name = 'GrantsTeams1763711000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE calendar.integration_grants (
      account_id text NOT NULL REFERENCES calendar.accounts(id),
      product_id text NOT NULL REFERENCES calendar.products(id),
      permission text NOT NULL CHECK (permission IN ('Read', 'Push', 'FreeBusy', 'Share')),
      granted_by text NOT NULL,
      granted_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (account_id, product_id, permission))`);
    await q.query(`CREATE TABLE calendar.team_members (
      account_id text NOT NULL REFERENCES calendar.accounts(id),
      team_id text NOT NULL,
      person_id text NOT NULL,
      PRIMARY KEY (account_id, team_id, person_id))`);
    await q.query(`CREATE INDEX team_members_person_idx ON calendar.team_members (account_id, person_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE calendar.team_members');
    await q.query('DROP TABLE calendar.integration_grants');
  }
}
