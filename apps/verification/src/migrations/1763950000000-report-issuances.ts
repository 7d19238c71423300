import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 13, reports: the append-only issuance log of summary reports (docs/verification/reports.md).
 * A trigger keeps it append-only: no row is deleted, the issued columns never change, and the status
 * columns are set once (superseded, revoked), never cleared or rewritten.
 */
export class ReportIssuances1763950000000 implements MigrationInterface {
  name = 'ReportIssuances1763950000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE verification.report_issuances (
      id uuid PRIMARY KEY,
      organization_id text NOT NULL,
      case_id uuid NOT NULL,
      summary_id uuid NOT NULL,
      summary_version integer NOT NULL,
      language text NOT NULL,
      sha256 text NOT NULL,
      signature text NOT NULL,
      kid text NOT NULL,
      issued_at timestamptz NOT NULL,
      superseded_by uuid,
      superseded_at timestamptz,
      revoked_at timestamptz,
      revocation_reason text,
      password_hash text,
      content jsonb NOT NULL,
      pdf bytea NOT NULL,
      CONSTRAINT report_issuances_organization_id_fkey FOREIGN KEY (organization_id)
        REFERENCES verification.organizations (id),
      CONSTRAINT report_issuances_case_id_fkey FOREIGN KEY (case_id)
        REFERENCES verification.verification_cases (id),
      CONSTRAINT report_issuances_superseded_by_fkey FOREIGN KEY (superseded_by)
        REFERENCES verification.report_issuances (id))`);
    await q.query(
      `CREATE UNIQUE INDEX report_issuances_case_idx ON verification.report_issuances (organization_id, case_id, issued_at)`,
    );
    await q.query(`CREATE FUNCTION verification.report_issuances_append_only() RETURNS trigger
      LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          RAISE EXCEPTION 'report_issuances is append-only: rows are never deleted';
        END IF;
        IF (NEW.id, NEW.organization_id, NEW.case_id, NEW.summary_id, NEW.summary_version, NEW.language,
            NEW.sha256, NEW.signature, NEW.kid, NEW.issued_at, NEW.password_hash, NEW.content, NEW.pdf)
           IS DISTINCT FROM
           (OLD.id, OLD.organization_id, OLD.case_id, OLD.summary_id, OLD.summary_version, OLD.language,
            OLD.sha256, OLD.signature, OLD.kid, OLD.issued_at, OLD.password_hash, OLD.content, OLD.pdf)
           OR (OLD.superseded_by IS NOT NULL AND NEW.superseded_by IS DISTINCT FROM OLD.superseded_by)
           OR (OLD.superseded_at IS NOT NULL AND NEW.superseded_at IS DISTINCT FROM OLD.superseded_at)
           OR (OLD.revoked_at IS NOT NULL AND NEW.revoked_at IS DISTINCT FROM OLD.revoked_at)
           OR (OLD.revoked_at IS NOT NULL AND NEW.revocation_reason IS DISTINCT FROM OLD.revocation_reason)
        THEN
          RAISE EXCEPTION 'report_issuances is append-only: only an unset status column may be set';
        END IF;
        RETURN NEW;
      END $$`);
    await q.query(`CREATE TRIGGER report_issuances_append_only
      BEFORE UPDATE OR DELETE ON verification.report_issuances
      FOR EACH ROW EXECUTE FUNCTION verification.report_issuances_append_only()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE verification.report_issuances');
    await q.query('DROP FUNCTION verification.report_issuances_append_only()');
  }
}
