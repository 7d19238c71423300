import type { MigrationInterface, QueryRunner } from 'typeorm';
import { tenantTableDdl } from '../tenancy/tenant-rls';

/** Customers' documents: what was found about each stored file, and its review. */
export class CustomerDocuments1763862000000 implements MigrationInterface {
  name = 'CustomerDocuments1763862000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE lending.customer_documents (
      id uuid PRIMARY KEY,
      organization_id text NOT NULL
        CONSTRAINT customer_documents_organization_id_fkey REFERENCES lending.organizations (id),
      customer_id uuid NOT NULL,
      type text NOT NULL CONSTRAINT customer_documents_type_check CHECK (type IN ('identity_document', 'proof_of_address', 'income_statement',
        'bank_statement', 'tax_return', 'business_registration', 'signed_agreement', 'other')),
      status text NOT NULL DEFAULT 'uploaded'
        CONSTRAINT customer_documents_status_check CHECK (status IN ('uploaded', 'verified', 'rejected')),
      file_name text NOT NULL,
      content_type text NOT NULL
        CONSTRAINT customer_documents_content_type_check CHECK (content_type IN ('application/pdf', 'image/jpeg', 'image/png')),
      size_bytes integer NOT NULL CONSTRAINT customer_documents_size_check CHECK (size_bytes > 0),
      sha256 text NOT NULL CONSTRAINT customer_documents_sha256_check CHECK (sha256 ~ '^[0-9a-f]{64}$'),
      storage_key text NOT NULL CONSTRAINT customer_documents_storage_key_key UNIQUE,
      review_comment text,
      reviewed_at timestamptz,
      uploaded_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT customer_documents_customer_fkey FOREIGN KEY (organization_id, customer_id)
        REFERENCES lending.customers (organization_id, id))`);
    await q.query(`CREATE INDEX customer_documents_customer_idx
      ON lending.customer_documents (organization_id, customer_id, uploaded_at)`);
    for (const ddl of tenantTableDdl('customer_documents')) await q.query(ddl);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE lending.customer_documents');
  }
}
