import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The column side of the one definition of length (code points, see events/event-limits.ts): a value
 * the API refuses can never be stored by another path either. NOT VALID: rows written before the
 * limits were counted this way are kept; every new or updated row is checked.
 */
export class TextLengthChecks1763714000000 implements MigrationInterface {
  name = 'TextLengthChecks1763714000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calendar.events ADD CONSTRAINT events_text_lengths_ck CHECK (
      char_length(product_id) <= 64 AND char_length(entity_type) <= 64 AND char_length(entity_id) <= 256
      AND char_length(title) <= 500 AND char_length(description) <= 10000
      AND char_length(location) <= 1000 AND char_length(owner_person_id) <= 128
      AND char_length(time_zone) <= 64) NOT VALID`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE calendar.events DROP CONSTRAINT events_text_lengths_ck`);
  }
}
