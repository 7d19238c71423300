import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dropTenantTablePolicy, tenantTablePolicy } from '@platform/persistence';

/**
 * CalDAV app passwords (issue 25, decision 0041): per person and client, only the password's SHA-256
 * kept; `login` (the Basic username) unique across accounts. Under the account's forced row-level
 * security like every table holding an account's rows (decision 0032); the login lookup of Basic
 * authentication is the one unscoped reader (app-password-logins.unscoped.repository.ts).
 */
export class AppPasswords1764400050000 implements MigrationInterface {
  name = 'AppPasswords1764400050000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE calendar.app_passwords (
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      account_id text NOT NULL,
      subject text NOT NULL,
      label text NOT NULL,
      login text NOT NULL,
      secret_hash text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz,
      revoked_at timestamptz,
      CONSTRAINT app_passwords_pkey PRIMARY KEY (id),
      CONSTRAINT app_passwords_account_id_fkey FOREIGN KEY (account_id) REFERENCES calendar.accounts (id),
      CONSTRAINT app_passwords_lengths_ck
        CHECK (char_length(subject) <= 256 AND char_length(label) <= 64 AND char_length(login) <= 64
          AND char_length(secret_hash) = 64)
    )`);
    await q.query(`CREATE UNIQUE INDEX app_passwords_login_key ON calendar.app_passwords (login)`);
    await q.query(`CREATE INDEX app_passwords_person_idx ON calendar.app_passwords (account_id, subject)`);
    for (const ddl of tenantTablePolicy('calendar', 'app_passwords', 'account_id')) await q.query(ddl);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const ddl of dropTenantTablePolicy('calendar', 'app_passwords')) await q.query(ddl);
    await q.query(`DROP TABLE calendar.app_passwords`);
  }
}
