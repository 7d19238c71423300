import { Injectable } from '@nestjs/common';
import { PeriodicJob } from '@platform/scheduling';
import { CasesRepository } from '../cases/cases.repository';
import { VerificationConfig } from '../config/verification.config';
import { DocumentsRepository } from '../documents/documents.repository';
import { DocumentsService, type ClaimedDocument } from '../documents/documents.service';
import { CheckStepsRepository } from './check-steps.repository';
import { documentSteps, documentVerdict, duplicateStep, type DuplicateHit } from './document-steps';

export type DocumentRunOutcome = 'Accepted' | 'Rejected' | 'taken-over' | 'failed';

/**
 * The orchestrator (docs/verification/checks.md, "Worker and leases"): every ORCHESTRATOR_INTERVAL_MS
 * each replica claims a batch of uploaded documents under a lease, runs the document steps outside any
 * transaction (file type by magic bytes, parsing, MRZ check digits, expiry, name and birth date against
 * the case, duplicates in the organization's other cases), then stores the steps and moves the document
 * to Accepted or Rejected in one transaction, unless another replica took it over meanwhile. A run that
 * throws keeps its lease: the document comes back when the lease lapses, until its attempts run out.
 */
@Injectable()
export class DocumentOrchestrator extends PeriodicJob<DocumentRunOutcome[]> {
  constructor(
    private readonly config: VerificationConfig,
    private readonly documents: DocumentsService,
    private readonly documentRows: DocumentsRepository,
    private readonly cases: CasesRepository,
    private readonly steps: CheckStepsRepository,
  ) {
    super('DocumentOrchestrator', config.ORCHESTRATOR_INTERVAL_MS);
  }

  protected intervalMs(): number {
    return this.config.ORCHESTRATOR_INTERVAL_MS;
  }

  protected work(): Promise<DocumentRunOutcome[]> {
    return this.runBatch();
  }

  protected override describe(done: DocumentRunOutcome[]): string | null {
    return done.length ? `checked ${done.length} document(s): ${done.join(', ')}` : null;
  }

  /** Claims one batch and runs it; returns each claimed document's outcome (tests call this). */
  async runBatch(now = new Date()): Promise<DocumentRunOutcome[]> {
    const claimed = await this.documents.claimForProcessing(
      this.config.ORCHESTRATOR_BATCH_SIZE,
      this.config.ORCHESTRATOR_LEASE_MS,
      this.config.ORCHESTRATOR_MAX_ATTEMPTS,
      now,
    );
    const outcomes: DocumentRunOutcome[] = [];
    for (const claim of claimed) outcomes.push(await this.runOne(claim, now));
    return outcomes;
  }

  private async runOne(claim: ClaimedDocument, now: Date): Promise<DocumentRunOutcome> {
    const { organizationId, doc } = claim;
    try {
      const body = await this.documents.bytesOfClaimed(claim);
      const c = await this.cases.get(organizationId, doc.caseId);
      const parsed = documentSteps(
        { body, declaredContentType: doc.declaredContentType },
        { applicantName: c?.applicantName ?? null, applicantBirthDate: c?.applicantBirthDate ?? null },
        now,
      );
      const sha256 = doc.sha256 ?? '';
      const sameFile: DuplicateHit[] = sha256
        ? (await this.documentRows.inOtherCasesWithBytes(organizationId, doc.caseId, sha256)).map((d) => ({
            caseId: d.caseId,
            documentId: d.id,
          }))
        : [];
      const fields = parsed.mrz?.result.fields;
      const sameNumber =
        fields?.documentNumber && fields.issuingState
          ? await this.steps.casesWithDocumentNumber(
              organizationId,
              doc.caseId,
              fields.issuingState,
              fields.documentNumber,
            )
          : [];
      const results = [...parsed.results, duplicateStep(sha256, parsed.mrz, sameFile, sameNumber)];
      const verdict = documentVerdict(results);
      const kept = await this.documents.finishProcessing(
        claim,
        { ...verdict, detectedType: parsed.detectedType },
        (tx) => this.steps.recordForDocument(organizationId, doc.caseId, doc.id, results, tx),
      );
      if (!kept) return 'taken-over';
      return verdict.accepted ? 'Accepted' : 'Rejected';
    } catch (err) {
      this.logger.warn(
        `document ${doc.id} (attempt ${doc.processingAttempts}) failed: ${err instanceof Error ? err.message : String(err)}; retried after its lease`,
      );
      return 'failed';
    }
  }
}
