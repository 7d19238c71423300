import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TenantScopedRepository, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { CheckStep } from './check-step.entity';
import { CHECK_STEPS, type StepResult } from './check-steps';

/** The stored results of the check steps (docs/verification/checks.md); the summary reads `ofCase`. */
@Injectable()
export class CheckStepsRepository extends TenantScopedRepository<CheckStep, 'organizationId'> {
  constructor(@InjectDataSource() ds: DataSource) {
    super(ds, CheckStep, 'organizationId');
  }

  /**
   * Every step of the case, oldest first; the steps of one run (stored at one instant) in the order
   * they ran (CHECK_STEPS), then the id.
   */
  ofCase(organizationId: OrganizationId, caseId: string, tx?: Tx): Promise<CheckStep[]> {
    return this.select(
      organizationId,
      's',
      (q) =>
        q
          .andWhere('s.case_id = :caseId', { caseId })
          .orderBy('s.created_at', 'ASC')
          .addOrderBy('array_position(CAST(:stepOrder AS text[]), s.step)', 'ASC')
          .addOrderBy('s.id', 'ASC')
          .setParameter('stepOrder', [...CHECK_STEPS])
          .getMany(),
      tx,
    );
  }

  /**
   * Stores a document's step results. A step already stored for the document (a run whose lease lapsed
   * and was reclaimed) is replaced: one row per (document, step), the latest run's.
   */
  async recordForDocument(
    organizationId: OrganizationId,
    caseId: string,
    documentId: string,
    results: readonly StepResult[],
    tx: Tx,
  ): Promise<void> {
    if (!results.length) return;
    const now = new Date();
    await this.asTenant(
      organizationId,
      (m) =>
        m
          .createQueryBuilder()
          .insert()
          .into(CheckStep)
          .values(
            results.map((r) => ({
              organizationId,
              caseId,
              documentId,
              providerSessionId: null,
              step: r.step,
              outcome: r.outcome,
              rule: r.rule,
              evidence: r.evidence,
              detail: r.detail,
              createdAt: now,
            })) as never,
          )
          .orUpdate(['outcome', 'rule', 'evidence', 'detail', 'created_at'], ['document_id', 'step'], {
            indexPredicate: 'document_id IS NOT NULL',
          })
          .execute(),
      tx,
    );
  }

  /** Stores a provider session's step (one per session). */
  async recordForSession(
    organizationId: OrganizationId,
    caseId: string,
    providerSessionId: string,
    result: StepResult,
    tx: Tx,
  ): Promise<void> {
    await this.insert(
      organizationId,
      [
        {
          caseId,
          documentId: null,
          providerSessionId,
          step: result.step,
          outcome: result.outcome,
          rule: result.rule,
          evidence: result.evidence,
          detail: result.detail,
        },
      ],
      tx,
    );
  }

  /**
   * The cases of the organization (other than `caseId`) whose parsed document carries this document
   * number of this issuing state: the duplicate-document step's second signal. Never another
   * organization's: the tenant condition is part of the query.
   */
  async casesWithDocumentNumber(
    organizationId: OrganizationId,
    caseId: string,
    issuingState: string,
    documentNumber: string,
    tx?: Tx,
  ): Promise<{ caseId: string; documentId: string }[]> {
    const rows = await this.select(
      organizationId,
      's',
      (q) =>
        q
          .andWhere("s.step = 'document-parse'")
          .andWhere('s.case_id <> :caseId', { caseId })
          .andWhere("s.evidence -> 'mrz' ->> 'documentNumber' = :documentNumber", { documentNumber })
          .andWhere("s.evidence -> 'mrz' ->> 'issuingState' = :issuingState", { issuingState })
          .orderBy('s.created_at', 'ASC')
          .getMany(),
      tx,
    );
    return rows.map((r) => ({ caseId: r.caseId, documentId: r.documentId as string }));
  }
}
