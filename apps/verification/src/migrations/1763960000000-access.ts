import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 13, access (docs/verification/access.md): organization settings (the IP allowlist), OAuth
 * access tokens (only their SHA-256 is kept, bound to the API key they were exchanged for) and the
 * activity history of authenticated writes.
 */
export class Access1763960000000 implements MigrationInterface {
  name = 'Access1763960000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE verification.organization_settings (
      organization_id text PRIMARY KEY,
      ip_allowlist text[] NOT NULL DEFAULT '{}',
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT organization_settings_organization_id_fkey FOREIGN KEY (organization_id)
        REFERENCES verification.organizations (id))`);
    await q.query(`CREATE TABLE verification.oauth_tokens (
      token_hash text PRIMARY KEY,
      organization_id text NOT NULL,
      key_id text NOT NULL,
      scopes text[] NOT NULL,
      issued_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      CONSTRAINT oauth_tokens_organization_id_fkey FOREIGN KEY (organization_id)
        REFERENCES verification.organizations (id))`);
    await q.query(
      `CREATE INDEX oauth_tokens_org_expires_idx ON verification.oauth_tokens (organization_id, expires_at)`,
    );
    await q.query(`CREATE TABLE verification.activity_log (
      id bigserial PRIMARY KEY,
      organization_id text NOT NULL,
      at timestamptz NOT NULL,
      actor text NOT NULL,
      actor_kind text NOT NULL,
      method text NOT NULL,
      route text NOT NULL,
      target_id text,
      status integer NOT NULL,
      request_id text,
      CONSTRAINT activity_log_organization_id_fkey FOREIGN KEY (organization_id)
        REFERENCES verification.organizations (id))`);
    await q.query(`CREATE INDEX activity_log_org_at_idx ON verification.activity_log (organization_id, at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE verification.activity_log`);
    await q.query(`DROP TABLE verification.oauth_tokens`);
    await q.query(`DROP TABLE verification.organization_settings`);
  }
}
