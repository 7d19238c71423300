import type { MigrationInterface, QueryRunner } from 'typeorm';
import { quoteSchema } from '@platform/outbox';
import { service } from '@platform/registry';

const S = quoteSchema(service('public-status').schema);

/**
 * Mail in the subscriber's language (decision 0024, "Languages"). `subscribers.language` is the
 * request's language when it subscribed (the platform's six; existing subscribers were mailed in
 * English, so they stay `en`). `mail_outbox.notice` is what a notification says, without its framing
 * texts: the worker renders it in the subscriber's language when it sends. `subject` and `body` keep
 * the staff-written headline and text, which is what a row without a notice (queued before this
 * migration) or a worker of the previous version still sends.
 */
export class SubscriberLanguage1763840000000 implements MigrationInterface {
  name = 'SubscriberLanguage1763840000000';

  async up(q: QueryRunner): Promise<void> {
    // The list is written out, not imported: a migration must not change when the code does.
    await q.query(`ALTER TABLE ${S}.subscribers ADD COLUMN language text NOT NULL DEFAULT 'en'
      CONSTRAINT subscribers_language_check CHECK (language IN ('en', 'ru', 'kk', 'uz', 'tr', 'es'))`);
    await q.query(`ALTER TABLE ${S}.mail_outbox ADD COLUMN notice jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ${S}.mail_outbox DROP COLUMN notice`);
    await q.query(`ALTER TABLE ${S}.subscribers DROP COLUMN language`);
  }
}
