import { Injectable } from '@nestjs/common';
import type { ListValue } from '@platform/envelope';
import { IdempotentOperations, type IdempotentRequest } from '@platform/idempotency';
import { Transactions, type Tx } from '@platform/persistence';
import type { OrganizationId } from '@platform/tenancy';
import { ReviewTaskMoves } from '../review/review-task-moves.service';
import { CaseHistoryRepository } from './case-history.repository';
import { CaseMoves } from './case-moves.service';
import type { CaseStatus } from './case-statuses';
import { CasesError, casesError } from './cases.errors';
import { CasesRepository } from './cases.repository';
import type { CreateCaseRequest } from './dto/create-case.request';
import type { ListCasesRequest } from './dto/list-cases.request';
import { UploadTokenIssuer } from './upload-token-issuer';
import type { VerificationCase } from './verification-case.entity';

export interface CaseView {
  id: string;
  status: string;
  externalReferenceId: string;
  applicantType: string;
  applicantCountryCode: string;
  reportCountryCode: string;
  applicantName: string | null;
  applicantBirthDate: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface CreatedCaseView {
  id: string;
  status: string;
  applicantUploadUrl: string;
}

export interface StatusChangeView {
  fromStatus: string | null;
  toStatus: string;
  changedAt: string;
}

/** What a case creation's Idempotency-Key keeps of its answer. */
interface StoredCase {
  caseId: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@Injectable()
export class CasesService {
  constructor(
    private readonly transactions: Transactions,
    private readonly cases: CasesRepository,
    private readonly history: CaseHistoryRepository,
    private readonly idempotency: IdempotentOperations,
    private readonly uploadTokens: UploadTokenIssuer,
    private readonly moves: CaseMoves,
    private readonly reviewTasks: ReviewTaskMoves,
  ) {}

  /**
   * Creates a case in AwaitingApplicant, once per Idempotency-Key (docs/verification-api.md,
   * "Idempotency"; @platform/idempotency). A second request while the first runs answers 409 at once
   * (no wait); the key commits with the case, so a later repeat of the same request finds it and
   * answers the same case. The stored answer is the case id, not the answer: the upload link is a
   * secret kept only as a hash, so a repeat gets a fresh link to the same case.
   */
  create(organizationId: OrganizationId, key: IdempotentRequest, dto: CreateCaseRequest) {
    return this.idempotency.run<CreatedCaseView>(
      organizationId,
      key,
      async (tx) => {
        const now = new Date();
        const status: CaseStatus = 'AwaitingApplicant';
        const fields = {
          status,
          externalReferenceId: dto.externalReferenceId,
          applicantType: dto.applicantType,
          applicantCountryCode: dto.applicantCountryCode,
          reportCountryCode: dto.reportCountryCode,
          applicantName: dto.applicantName ?? null,
          applicantBirthDate: dto.applicantBirthDate ?? null,
          createdAt: now,
          updatedAt: now,
        };
        const id = await this.cases.create(organizationId, fields, tx);
        await this.moves.started(tx, organizationId, { ...fields, id, organizationId });
        return this.created(id, status, await this.issueToken(tx, organizationId, id, now));
      },
      {
        statusCode: 201,
        stored: (answer): StoredCase => ({ caseId: answer.id }),
        replay: async (tx, stored) => {
          const { caseId } = stored as StoredCase;
          const existing = await this.cases.get(organizationId, caseId, tx);
          if (!existing) throw casesError(CasesError.NOT_FOUND, { caseId });
          return this.created(
            existing.id,
            existing.status,
            await this.issueToken(tx, organizationId, existing.id, new Date()),
          );
        },
      },
    );
  }

  async get(organizationId: OrganizationId, id: string): Promise<CaseView> {
    return view(await this.found(organizationId, id));
  }

  async list(organizationId: OrganizationId, q: ListCasesRequest): Promise<ListValue<CaseView>> {
    const [rows, total] = await this.cases.pageOf(
      organizationId,
      {
        externalReferenceId: q.externalReferenceId,
        status: q.status,
        createdFrom: q.createdFrom ? new Date(q.createdFrom) : undefined,
        createdTo: q.createdTo ? new Date(q.createdTo) : undefined,
      },
      q.offset ?? 0,
      q.limit ?? 20,
    );
    return { items: rows.map(view), total };
  }

  async statusHistory(organizationId: OrganizationId, id: string): Promise<ListValue<StatusChangeView>> {
    await this.found(organizationId, id);
    const rows = await this.history.of(organizationId, id);
    return {
      items: rows.map((r) => ({
        fromStatus: r.fromStatus,
        toStatus: r.toStatus,
        changedAt: r.changedAt.toISOString(),
      })),
      total: rows.length,
    };
  }

  /**
   * Cancels the case and, in the same transaction under the case's lock, its Open/InProgress review
   * task (`manual_review.status_changed` to Cancelled, actor `system`): a cancelled case leaves no task
   * waiting for a reviewer. A refused move (a final case) cancels nothing.
   */
  cancel(organizationId: OrganizationId, id: string): Promise<CaseView> {
    return this.transactions.run(async (tx) => {
      const c = await this.moves.move(
        tx,
        organizationId,
        await this.moves.lock(tx, organizationId, id),
        'Cancelled',
      );
      await this.reviewTasks.cancelActive(tx, organizationId, c.id);
      return view(c);
    });
  }

  private async found(organizationId: OrganizationId, id: string): Promise<VerificationCase> {
    const c = UUID.test(id) ? await this.cases.get(organizationId, id) : null;
    if (!c) throw casesError(CasesError.NOT_FOUND, { caseId: id });
    return c;
  }

  /**
   * A fresh single-use token for the case; only its hash is stored. A repeat of creation gets a token of
   * its own, so every answer's link works until one of them is used (then the portal retires the rest).
   */
  private async issueToken(
    tx: Tx,
    organizationId: OrganizationId,
    caseId: string,
    now: Date,
  ): Promise<string> {
    return (await this.uploadTokens.issue(tx, organizationId, caseId, now)).url;
  }

  private created(id: string, status: string, applicantUploadUrl: string): CreatedCaseView {
    return { id, status, applicantUploadUrl };
  }
}

function view(c: VerificationCase): CaseView {
  return {
    id: c.id,
    status: c.status,
    externalReferenceId: c.externalReferenceId,
    applicantType: c.applicantType,
    applicantCountryCode: c.applicantCountryCode,
    reportCountryCode: c.reportCountryCode,
    applicantName: c.applicantName,
    applicantBirthDate: c.applicantBirthDate,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}
