import type { MigrationInterface, QueryRunner } from 'typeorm';
import { apiKeyTablesDdl, dropApiKeyTablesDdl } from '@platform/tenancy';
import {
  COMPONENT_STATES,
  INCIDENT_IMPACTS,
  INCIDENT_STATUSES,
  MAINTENANCE_STATUSES,
  STATE_SOURCES,
  sqlIn,
} from '../status/states';

const KEYS = { ownerTable: 'businesses', createOwnerTable: false };
const S = 'public_status';

/** Tables whose rows are never changed or removed once written (history, incident updates, rollups). */
const APPEND_ONLY = ['incident_updates', 'uptime_daily'];

/**
 * The public status model (issue 11, decision 0020): businesses (the tenant, with management keys),
 * products, resources with their state and its append-only history, incidents with hash-chained
 * updates, maintenances, hash-chained daily uptime rollups, and the publication views every anonymous
 * read goes through. The foundation's `products` rows (one operator's platform products) move to a
 * business `platform`, published as they were.
 */
export class StatusModel1763800000000 implements MigrationInterface {
  name = 'StatusModel1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE ${S}.businesses (
      id text PRIMARY KEY,
      name text NOT NULL,
      slug text NOT NULL,
      published boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT businesses_slug_key UNIQUE (slug))`);
    // The tenancy admin creates a business from (id, name): its public slug starts as its id.
    await q.query(`CREATE FUNCTION ${S}.businesses_default_slug() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.slug IS NULL THEN NEW.slug := lower(NEW.id); END IF;
        RETURN NEW;
      END $$`);
    await q.query(`CREATE TRIGGER businesses_default_slug BEFORE INSERT ON ${S}.businesses
      FOR EACH ROW EXECUTE FUNCTION ${S}.businesses_default_slug()`);
    for (const ddl of apiKeyTablesDdl(S, KEYS)) await q.query(ddl);

    await q.query(`ALTER TABLE ${S}.products RENAME TO products_foundation`);
    await q.query(
      `ALTER TABLE ${S}.products_foundation RENAME CONSTRAINT products_pkey TO products_foundation_pkey`,
    );
    await q.query(`CREATE TABLE ${S}.products (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      business_id text NOT NULL,
      slug text NOT NULL,
      name text NOT NULL,
      published boolean NOT NULL DEFAULT false,
      sort_order integer NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT products_business_id_fkey FOREIGN KEY (business_id) REFERENCES ${S}.businesses(id),
      CONSTRAINT products_business_slug_key UNIQUE (business_id, slug))`);
    await q.query(`INSERT INTO ${S}.businesses (id, name, slug, published)
      SELECT 'platform', 'Platform', 'platform', true WHERE EXISTS (SELECT 1 FROM ${S}.products_foundation)`);
    await q.query(`INSERT INTO ${S}.products (business_id, slug, name, published, created_at)
      SELECT 'platform', lower(id), name, published, created_at FROM ${S}.products_foundation`);
    await q.query(`DROP TABLE ${S}.products_foundation`);

    await q.query(`CREATE TABLE ${S}.resources (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      business_id text NOT NULL,
      product_id uuid NOT NULL,
      slug text NOT NULL,
      name text NOT NULL,
      published boolean NOT NULL DEFAULT false,
      sort_order integer NOT NULL DEFAULT 0,
      state text NOT NULL DEFAULT 'operational',
      state_source text NOT NULL DEFAULT 'manual',
      state_since timestamptz NOT NULL DEFAULT now(),
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT resources_state_check CHECK (${sqlIn('state', COMPONENT_STATES)}),
      CONSTRAINT resources_business_id_fkey FOREIGN KEY (business_id) REFERENCES ${S}.businesses(id),
      CONSTRAINT resources_product_id_fkey FOREIGN KEY (product_id) REFERENCES ${S}.products(id),
      CONSTRAINT resources_product_slug_key UNIQUE (product_id, slug))`);
    await q.query(`CREATE INDEX resources_business_idx ON ${S}.resources (business_id)`);

    await q.query(`CREATE TABLE ${S}.state_history (
      id bigserial PRIMARY KEY,
      business_id text NOT NULL,
      resource_id uuid NOT NULL,
      state text NOT NULL,
      source text NOT NULL,
      note text NOT NULL DEFAULT '',
      started_at timestamptz NOT NULL,
      ended_at timestamptz,
      CONSTRAINT state_history_state_check CHECK (${sqlIn('state', COMPONENT_STATES)}),
      CONSTRAINT state_history_source_check CHECK (${sqlIn('source', STATE_SOURCES)}),
      CONSTRAINT state_history_business_id_fkey FOREIGN KEY (business_id) REFERENCES ${S}.businesses(id),
      CONSTRAINT state_history_resource_id_fkey FOREIGN KEY (resource_id) REFERENCES ${S}.resources(id))`);
    await q.query(
      `CREATE INDEX state_history_resource_started_idx ON ${S}.state_history (resource_id, started_at)`,
    );
    await q.query(
      `CREATE UNIQUE INDEX state_history_open_idx ON ${S}.state_history (resource_id) WHERE ended_at IS NULL`,
    );
    // History is closed, never rewritten: only ended_at may be set, once.
    await q.query(`CREATE FUNCTION ${S}.state_history_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' OR OLD.ended_at IS NOT NULL OR NEW.ended_at IS NULL
           OR (NEW.id, NEW.business_id, NEW.resource_id, NEW.state, NEW.source, NEW.note, NEW.started_at)
              IS DISTINCT FROM (OLD.id, OLD.business_id, OLD.resource_id, OLD.state, OLD.source, OLD.note, OLD.started_at)
        THEN RAISE EXCEPTION 'state_history is append-only' USING ERRCODE = 'P0001';
        END IF;
        RETURN NEW;
      END $$`);
    await q.query(`CREATE TRIGGER state_history_append_only BEFORE UPDATE OR DELETE ON ${S}.state_history
      FOR EACH ROW EXECUTE FUNCTION ${S}.state_history_append_only()`);

    await q.query(`CREATE TABLE ${S}.incidents (
      id text PRIMARY KEY,
      business_id text NOT NULL,
      name text NOT NULL,
      impact text NOT NULL,
      status text NOT NULL,
      resource_ids uuid[] NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL,
      updated_at timestamptz NOT NULL,
      resolved_at timestamptz,
      CONSTRAINT incidents_status_check CHECK (${sqlIn('status', INCIDENT_STATUSES)}),
      CONSTRAINT incidents_impact_check CHECK (${sqlIn('impact', INCIDENT_IMPACTS)}),
      CONSTRAINT incidents_business_id_fkey FOREIGN KEY (business_id) REFERENCES ${S}.businesses(id))`);
    await q.query(`CREATE INDEX incidents_business_created_idx ON ${S}.incidents (business_id, created_at)`);
    await q.query(`CREATE TABLE ${S}.incident_updates (
      id bigserial PRIMARY KEY,
      business_id text NOT NULL,
      incident_id text NOT NULL,
      seq integer NOT NULL,
      status text NOT NULL,
      body text NOT NULL,
      created_at timestamptz NOT NULL,
      prev_hash text NOT NULL,
      hash text NOT NULL,
      CONSTRAINT incident_updates_status_check CHECK (${sqlIn('status', INCIDENT_STATUSES)}),
      CONSTRAINT incident_updates_business_id_fkey FOREIGN KEY (business_id) REFERENCES ${S}.businesses(id),
      CONSTRAINT incident_updates_incident_id_fkey FOREIGN KEY (incident_id) REFERENCES ${S}.incidents(id),
      CONSTRAINT incident_updates_incident_seq_key UNIQUE (incident_id, seq))`);

    await q.query(`CREATE TABLE ${S}.maintenances (
      id text PRIMARY KEY,
      business_id text NOT NULL,
      name text NOT NULL,
      body text NOT NULL DEFAULT '',
      status text NOT NULL,
      resource_ids uuid[] NOT NULL DEFAULT '{}',
      scheduled_for timestamptz NOT NULL,
      scheduled_until timestamptz NOT NULL,
      started_at timestamptz,
      completed_at timestamptz,
      created_at timestamptz NOT NULL,
      CONSTRAINT maintenances_status_check CHECK (${sqlIn('status', MAINTENANCE_STATUSES)}),
      CONSTRAINT maintenances_business_id_fkey FOREIGN KEY (business_id) REFERENCES ${S}.businesses(id))`);
    await q.query(
      `CREATE INDEX maintenances_business_scheduled_idx ON ${S}.maintenances (business_id, scheduled_for)`,
    );

    await q.query(`CREATE TABLE ${S}.uptime_daily (
      id bigserial PRIMARY KEY,
      business_id text NOT NULL,
      resource_id uuid NOT NULL,
      day date NOT NULL,
      revision integer NOT NULL,
      operational_s integer NOT NULL,
      degraded_s integer NOT NULL,
      partial_s integer NOT NULL,
      major_s integer NOT NULL,
      maintenance_s integer NOT NULL,
      computed_at timestamptz NOT NULL,
      prev_hash text NOT NULL,
      hash text NOT NULL,
      CONSTRAINT uptime_daily_business_id_fkey FOREIGN KEY (business_id) REFERENCES ${S}.businesses(id),
      CONSTRAINT uptime_daily_resource_id_fkey FOREIGN KEY (resource_id) REFERENCES ${S}.resources(id),
      CONSTRAINT uptime_daily_resource_day_revision_key UNIQUE (resource_id, day, revision))`);

    await q.query(`CREATE FUNCTION ${S}.refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION '% is append-only: a correction is a new row', TG_TABLE_NAME USING ERRCODE = 'P0001';
      END $$`);
    for (const t of APPEND_ONLY)
      await q.query(`CREATE TRIGGER ${t}_append_only BEFORE UPDATE OR DELETE ON ${S}.${t}
        FOR EACH ROW EXECUTE FUNCTION ${S}.refuse_change()`);

    // Publication, in one place: something is public only when it and every level above it are
    // published. Every anonymous read selects from these views and nothing else.
    await q.query(`CREATE VIEW ${S}.public_businesses AS
      SELECT b.id, b.slug, b.name FROM ${S}.businesses b WHERE b.published`);
    await q.query(`CREATE VIEW ${S}.public_products AS
      SELECT p.id, p.business_id, b.slug AS business_slug, p.slug, p.name, p.sort_order
      FROM ${S}.products p JOIN ${S}.public_businesses b ON b.id = p.business_id
      WHERE p.published`);
    await q.query(`CREATE VIEW ${S}.public_resources AS
      SELECT r.id, r.business_id, r.product_id, p.slug AS product_slug, p.name AS product_name,
             p.sort_order AS product_sort_order, r.slug, r.name, r.sort_order, r.state, r.state_since
      FROM ${S}.resources r JOIN ${S}.public_products p ON p.id = r.product_id
      WHERE r.published`);
    // An incident or maintenance is public when its business is and it touches a public resource,
    // or names no resource at all (business-wide).
    for (const [view, table] of [
      ['public_incidents', 'incidents'],
      ['public_maintenances', 'maintenances'],
    ])
      await q.query(`CREATE VIEW ${S}.${view} AS
        SELECT t.* FROM ${S}.${table} t JOIN ${S}.public_businesses b ON b.id = t.business_id
        WHERE cardinality(t.resource_ids) = 0
           OR EXISTS (SELECT 1 FROM ${S}.public_resources r WHERE r.id = ANY (t.resource_ids))`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const v of [
      'public_maintenances',
      'public_incidents',
      'public_resources',
      'public_products',
      'public_businesses',
    ])
      await q.query(`DROP VIEW ${S}.${v}`);
    for (const t of [
      'uptime_daily',
      'maintenances',
      'incident_updates',
      'incidents',
      'state_history',
      'resources',
    ])
      await q.query(`DROP TABLE ${S}.${t}`);
    await q.query(`DROP FUNCTION ${S}.refuse_change()`);
    await q.query(`DROP FUNCTION ${S}.state_history_append_only()`);
    await q.query(`CREATE TABLE ${S}.products_foundation (
      id text PRIMARY KEY,
      name text NOT NULL,
      published boolean NOT NULL DEFAULT false,
      state text NOT NULL DEFAULT 'operational' CHECK (${sqlIn('state', COMPONENT_STATES)}),
      created_at timestamptz NOT NULL DEFAULT now())`);
    await q.query(`INSERT INTO ${S}.products_foundation (id, name, published, created_at)
      SELECT DISTINCT ON (slug) slug, name, published, created_at FROM ${S}.products ORDER BY slug, created_at`);
    await q.query(`DROP TABLE ${S}.products`);
    await q.query(
      `ALTER TABLE ${S}.products_foundation RENAME CONSTRAINT products_foundation_pkey TO products_pkey`,
    );
    await q.query(`ALTER TABLE ${S}.products_foundation RENAME TO products`);
    for (const ddl of dropApiKeyTablesDdl(S, KEYS)) await q.query(ddl);
    await q.query(`DROP TABLE ${S}.businesses`);
    await q.query(`DROP FUNCTION ${S}.businesses_default_slug()`);
  }
}
