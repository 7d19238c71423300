import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { VerificationCase } from '../cases/verification-case.entity';

/** A table another area owns and the columns that could date its rows, in order of preference. */
export interface CountedTable {
  table: 'verification_cases' | 'provider_sessions' | 'case_summaries' | 'documents';
  timeColumns: readonly ('created_at' | 'started_at' | 'generated_at' | 'uploaded_at')[];
}

/**
 * Monthly counts over the organization's rows of other areas' tables. Table and column names come only
 * from the fixed list above; whether a table (and which time column) exists is read from the catalog,
 * so an area built later is counted from its own table as soon as its migration has run.
 */
@Injectable()
export class UsageRepository extends TenantScopedRepository<VerificationCase, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, VerificationCase, 'organizationId');
  }

  /** The organization's rows created in [from, to), or undefined when the table does not exist (yet). */
  async countRows(
    organizationId: OrganizationId,
    counted: CountedTable,
    from: Date,
    to: Date,
  ): Promise<number | undefined> {
    // The catalog read goes through the door too (its `$1` only satisfies the door's rule).
    const cols = await this.sql<{ column_name: string }>(
      organizationId,
      `SELECT column_name FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = $2 AND $1::text IS NOT NULL`,
      [counted.table],
    );
    const names = new Set(cols.map((c) => c.column_name));
    const time = counted.timeColumns.find((c) => names.has(c));
    if (!names.has('organization_id') || !time) return undefined;
    const [row] = await this.sql<{ n: number }>(
      organizationId,
      `SELECT count(*)::int AS n FROM "${counted.table}"
        WHERE organization_id = $1 AND "${time}" >= $2 AND "${time}" < $3`,
      [from, to],
    );
    return Number(row.n);
  }
}
