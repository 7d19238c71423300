import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 13, borrower portal (docs/verification/portal.md): an upload link may carry the portal's
 * default language for the borrower (`POST .../upload-link` `language`); null keeps the browser's.
 */
export class Portal1763920000000 implements MigrationInterface {
  name = 'Portal1763920000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE verification.case_upload_tokens ADD COLUMN language text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE verification.case_upload_tokens DROP COLUMN language');
  }
}
