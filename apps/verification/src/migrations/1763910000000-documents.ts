import type { MigrationInterface, QueryRunner } from 'typeorm';
import {
  DOCUMENT_KINDS,
  DOCUMENT_SOURCES,
  DOCUMENT_STATUSES,
  sqlValues,
} from '../documents/document-statuses';

/**
 * Issue 13, documents (docs/verification/documents.md): a case's documents, from the signed upload URL
 * to the orchestrator's verdict, and their append-only status history.
 */
export class Documents1763910000000 implements MigrationInterface {
  name = 'Documents1763910000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE verification.documents (
      id uuid PRIMARY KEY,
      organization_id text NOT NULL,
      case_id uuid NOT NULL,
      kind text NOT NULL,
      source text NOT NULL,
      status text NOT NULL,
      file_name text,
      declared_content_type text NOT NULL,
      detected_type text,
      max_bytes int NOT NULL,
      size_bytes bigint,
      sha256 text,
      storage_key text,
      upload_expires_at timestamptz,
      processing_attempts int NOT NULL DEFAULT 0,
      lease_until timestamptz,
      rejection_reason text,
      created_at timestamptz NOT NULL DEFAULT now(),
      uploaded_at timestamptz,
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT documents_organization_id_fkey FOREIGN KEY (organization_id)
        REFERENCES verification.organizations (id),
      CONSTRAINT documents_case_id_fkey FOREIGN KEY (case_id)
        REFERENCES verification.verification_cases (id),
      CONSTRAINT documents_kind_check CHECK (${sqlValues('kind', DOCUMENT_KINDS)}),
      CONSTRAINT documents_source_check CHECK (${sqlValues('source', DOCUMENT_SOURCES)}),
      CONSTRAINT documents_status_check CHECK (${sqlValues('status', DOCUMENT_STATUSES)}))`);
    await q.query(
      `CREATE INDEX documents_case_idx ON verification.documents (organization_id, case_id, created_at)`,
    );
    await q.query(`CREATE INDEX documents_claim_idx ON verification.documents (status, lease_until)`);
    await q.query(`CREATE INDEX documents_sha256_idx ON verification.documents (sha256)`);
    await q.query(`CREATE TABLE verification.document_status_history (
      id bigserial PRIMARY KEY,
      organization_id text NOT NULL,
      document_id uuid NOT NULL,
      from_status text,
      to_status text NOT NULL,
      reason text,
      changed_at timestamptz NOT NULL,
      CONSTRAINT document_status_history_organization_id_fkey FOREIGN KEY (organization_id)
        REFERENCES verification.organizations (id),
      CONSTRAINT document_status_history_document_id_fkey FOREIGN KEY (document_id)
        REFERENCES verification.documents (id))`);
    await q.query(
      `CREATE INDEX document_status_history_document_idx ON verification.document_status_history (organization_id, document_id, id)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE verification.document_status_history');
    await q.query('DROP TABLE verification.documents');
  }
}
