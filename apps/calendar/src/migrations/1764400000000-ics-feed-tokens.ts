import type { MigrationInterface, QueryRunner } from 'typeorm';
import { dropTenantTablePolicy, tenantTablePolicy } from '@platform/persistence';

/**
 * ICS subscription feeds (issue 25, docs/ics-feed.md): a person's read-only feed of their own view, a
 * team of theirs or a resource, fetched by a calendar client at `GET /Calendar/ics/{token}`. Only the
 * token's SHA-256 is kept, with its public id (`key_id`, unique across accounts: the token names its
 * account through it). Under the account's forced row-level security like every table holding an
 * account's rows (decision 0032); the token lookup is the one unscoped reader
 * (ics-feed-tokens.unscoped.repository.ts).
 */
export class IcsFeedTokens1764400000000 implements MigrationInterface {
  name = 'IcsFeedTokens1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE calendar.ics_feeds (
      id uuid NOT NULL DEFAULT gen_random_uuid(),
      account_id text NOT NULL,
      subject text NOT NULL,
      view text NOT NULL,
      target text NOT NULL,
      name text NOT NULL,
      key_id text NOT NULL,
      token_hash text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz,
      revoked_at timestamptz,
      CONSTRAINT ics_feeds_pkey PRIMARY KEY (id),
      CONSTRAINT ics_feeds_account_id_fkey FOREIGN KEY (account_id) REFERENCES calendar.accounts (id),
      CONSTRAINT ics_feeds_view_ck CHECK (view IN ('person', 'team', 'resource')),
      CONSTRAINT ics_feeds_lengths_ck
        CHECK (char_length(subject) <= 256 AND char_length(target) <= 320 AND char_length(name) <= 100
          AND char_length(key_id) = 12 AND char_length(token_hash) = 64)
    )`);
    await q.query(`CREATE UNIQUE INDEX ics_feeds_key_id_key ON calendar.ics_feeds (key_id)`);
    await q.query(`CREATE INDEX ics_feeds_person_idx ON calendar.ics_feeds (account_id, subject)`);
    for (const ddl of tenantTablePolicy('calendar', 'ics_feeds', 'account_id')) await q.query(ddl);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const ddl of dropTenantTablePolicy('calendar', 'ics_feeds')) await q.query(ddl);
    await q.query(`DROP TABLE calendar.ics_feeds`);
  }
}
