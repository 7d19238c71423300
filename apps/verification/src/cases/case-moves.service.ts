import { Injectable } from '@nestjs/common';
import type { Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { VerificationEvents } from '../events/verification-events';
import { CaseHistoryRepository } from './case-history.repository';
import { canMove, isCaseStatus, type CaseStatus } from './case-statuses';
import { CasesError, casesError } from './cases.errors';
import { CasesRepository } from './cases.repository';
import type { VerificationCase } from './verification-case.entity';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The only place a case's status is written. Every area (cancel, the portal, the orchestrator, the
 * summary, manual review) moves a case through here, inside its own transaction: the move is checked
 * against CASE_TRANSITIONS, recorded in the append-only history and announced as
 * `case.status_changed`, all in that transaction.
 */
@Injectable()
export class CaseMoves {
  constructor(
    private readonly cases: CasesRepository,
    private readonly history: CaseHistoryRepository,
    private readonly events: VerificationEvents,
  ) {}

  /** The case locked until `tx` ends (moves of one case happen one at a time), or CASE_NOT_FOUND. */
  async lock(tx: Tx, organizationId: OrganizationId, caseId: string): Promise<VerificationCase> {
    const c = UUID.test(caseId) ? await this.cases.lock(organizationId, caseId, tx) : null;
    if (!c) throw casesError(CasesError.NOT_FOUND, { caseId });
    return c;
  }

  /** Records a new case's first status (its history row and event); the row itself is already written. */
  async started(tx: Tx, organizationId: OrganizationId, c: VerificationCase): Promise<void> {
    await this.record(tx, organizationId, c, null, c.createdAt);
  }

  /**
   * Moves a case (locked by `lock` in this transaction) to `to`, or answers CASE_TRANSITION_NOT_ALLOWED
   * (409). Returns the case as it now is.
   */
  async move(
    tx: Tx,
    organizationId: OrganizationId,
    c: VerificationCase,
    to: CaseStatus,
  ): Promise<VerificationCase> {
    if (!isCaseStatus(c.status) || !canMove(c.status, to))
      throw casesError(CasesError.TRANSITION_NOT_ALLOWED, { from: c.status, to });
    const now = new Date();
    await this.cases.change(organizationId, c.id, { status: to, updatedAt: now }, tx);
    const moved = { ...c, status: to, updatedAt: now };
    await this.record(tx, organizationId, moved, c.status, now);
    return moved;
  }

  /** `move`, unless the case is already in `to` (then unchanged): for steps that may run twice. */
  async ensure(
    tx: Tx,
    organizationId: OrganizationId,
    c: VerificationCase,
    to: CaseStatus,
  ): Promise<VerificationCase> {
    return c.status === to ? c : this.move(tx, organizationId, c, to);
  }

  private async record(
    tx: Tx,
    organizationId: OrganizationId,
    c: VerificationCase,
    from: string | null,
    at: Date,
  ): Promise<void> {
    await this.history.append(
      organizationId,
      { caseId: c.id, fromStatus: from, toStatus: c.status, changedAt: at },
      tx,
    );
    await this.events.emit(tx, organizationId, 'case.status_changed', {
      caseId: c.id,
      externalReferenceId: c.externalReferenceId,
      fromStatus: from,
      toStatus: c.status,
      changedAt: at.toISOString(),
    });
  }
}
