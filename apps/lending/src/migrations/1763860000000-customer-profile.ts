import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The customers area (issue 12): the profile of an individual or a business on the core row, its
 * status with the reason of the last change, and the version that guards concurrent updates. Every
 * new column is nullable or defaulted: rows other areas created stay valid. `(organization_id, id)`
 * becomes unique so that the area's tables can reference a customer together with its organization.
 */
export class CustomerProfile1763860000000 implements MigrationInterface {
  name = 'CustomerProfile1763860000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE lending.customers
      ADD COLUMN external_id text,
      ADD COLUMN display_name text NOT NULL DEFAULT '',
      ADD COLUMN first_name text,
      ADD COLUMN last_name text,
      ADD COLUMN middle_name text,
      ADD COLUMN birth_date date,
      ADD COLUMN gender text,
      ADD COLUMN citizenship text,
      ADD COLUMN legal_name text,
      ADD COLUMN trade_name text,
      ADD COLUMN registration_number text,
      ADD COLUMN registration_country text,
      ADD COLUMN registration_date date,
      ADD COLUMN legal_form text,
      ADD COLUMN email text,
      ADD COLUMN phone text,
      ADD COLUMN preferred_language text,
      ADD COLUMN address jsonb,
      ADD COLUMN status_reason text,
      ADD COLUMN status_changed_at timestamptz,
      ADD COLUMN version integer NOT NULL DEFAULT 1,
      ADD CONSTRAINT customers_status_check CHECK (status IN ('active', 'blocked', 'closed')),
      ADD CONSTRAINT customers_gender_check CHECK (gender IN ('female', 'male', 'other', 'unspecified')),
      ADD CONSTRAINT customers_preferred_language_check CHECK (preferred_language IN ('en', 'ru', 'kk', 'uz', 'tr', 'es')),
      ADD CONSTRAINT customers_version_check CHECK (version >= 1),
      ADD CONSTRAINT customers_organization_id_id_key UNIQUE (organization_id, id)`);
    await q.query(`CREATE UNIQUE INDEX customers_org_external_id_key ON lending.customers
      (organization_id, external_id) WHERE external_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX lending.customers_org_external_id_key');
    await q.query(`ALTER TABLE lending.customers
      DROP CONSTRAINT customers_organization_id_id_key,
      DROP CONSTRAINT customers_version_check,
      DROP CONSTRAINT customers_preferred_language_check,
      DROP CONSTRAINT customers_gender_check,
      DROP CONSTRAINT customers_status_check,
      DROP COLUMN version, DROP COLUMN status_changed_at, DROP COLUMN status_reason, DROP COLUMN address,
      DROP COLUMN preferred_language, DROP COLUMN phone, DROP COLUMN email, DROP COLUMN legal_form,
      DROP COLUMN registration_date, DROP COLUMN registration_country, DROP COLUMN registration_number,
      DROP COLUMN trade_name, DROP COLUMN legal_name, DROP COLUMN citizenship, DROP COLUMN gender,
      DROP COLUMN birth_date, DROP COLUMN middle_name, DROP COLUMN last_name, DROP COLUMN first_name,
      DROP COLUMN display_name, DROP COLUMN external_id`);
  }
}
