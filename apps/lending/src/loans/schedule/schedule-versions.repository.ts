import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { LoanScheduleVersion } from './loan-schedule-version.entity';

/** A version with what the transaction that made it was. */
export interface ScheduleVersionRow {
  version: number;
  transactionId: string;
  kind: string;
  valueDate: string;
  instalmentIds: string[];
  createdAt: Date;
}

/**
 * A loan's schedule versions (docs/lending/loans.md, "Schedule"), always inside a TenantData
 * transaction holding the loan's row lock (so version numbers cannot collide).
 */
@Injectable()
export class ScheduleVersionsRepository extends TenantScopedRepository<
  LoanScheduleVersion,
  'organizationId'
> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, LoanScheduleVersion, 'organizationId');
  }

  /** Records the schedule in force now as the next version, made by `transactionId`; returns its number. */
  async record(
    organizationId: OrganizationId,
    loanId: string,
    transactionId: string,
    tx: Tx,
  ): Promise<number> {
    const [row] = (await this.sql(
      organizationId,
      `INSERT INTO loan_schedule_versions (organization_id, loan_id, version, transaction_id, instalment_ids)
       SELECT $1, $2,
              (SELECT coalesce(max(version), 0) + 1 FROM loan_schedule_versions
                WHERE organization_id = $1 AND loan_id = $2),
              $3,
              coalesce((SELECT array_agg(id ORDER BY number) FROM loan_instalments
                         WHERE organization_id = $1 AND loan_id = $2 AND superseded_by IS NULL), '{}')
       RETURNING version`,
      [loanId, transactionId],
      tx,
    )) as { version: number }[];
    return row.version;
  }

  /** Every version of the loan, oldest first, with the kind and value date of the transaction that made it. */
  async list(organizationId: OrganizationId, loanId: string, tx: Tx): Promise<ScheduleVersionRow[]> {
    const rows = (await this.sql(
      organizationId,
      `SELECT v.version, v.transaction_id, t.kind, t.value_date::text AS value_date, v.instalment_ids, v.created_at
         FROM loan_schedule_versions v
         JOIN ledger_transactions t ON t.organization_id = v.organization_id AND t.id = v.transaction_id
        WHERE v.organization_id = $1 AND v.loan_id = $2
        ORDER BY v.version`,
      [loanId],
      tx,
    )) as {
      version: number;
      transaction_id: string;
      kind: string;
      value_date: string;
      instalment_ids: string[];
      created_at: Date;
    }[];
    return rows.map((r) => ({
      version: r.version,
      transactionId: r.transaction_id,
      kind: r.kind,
      valueDate: r.value_date,
      instalmentIds: r.instalment_ids,
      createdAt: r.created_at,
    }));
  }
}
