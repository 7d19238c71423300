import { join } from 'node:path';
import { Module, type DynamicModule } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypedConfigModule } from '@platform/config';
import { EnvelopeModule } from '@platform/envelope';
import { HealthModule, MetricsModule, brokerCheck, databaseCheck } from '@platform/health';
import { PlatformI18nModule } from '@platform/i18n';
import { BrokerProbeModule } from '@platform/kafka';
import { IdempotencyKeysRepository, IdempotentOperations } from '@platform/idempotency';
import { PersistenceModule, Transactions } from '@platform/persistence';
import { CaseHistoryRepository } from './cases/case-history.repository';
import { CaseMoves } from './cases/case-moves.service';
import { CaseUploadTokensRepository } from './cases/case-upload-tokens.repository';
import { UploadTokenLookupRepository } from './cases/upload-token-lookup.unscoped.repository';
import { UploadTokenIssuer } from './cases/upload-token-issuer';
import { CasesController } from './cases/cases.controller';
import { CasesRepository } from './cases/cases.repository';
import { CasesService } from './cases/cases.service';
import { CheckStepsRepository } from './checks/check-steps.repository';
import { ChecksController } from './checks/checks.controller';
import { ChecksService } from './checks/checks.service';
import { DocumentOrchestrator } from './checks/document-orchestrator';
import { VerificationConfig } from './config/verification.config';
import { PublicReportsController } from './reports/public-reports.controller';
import { PublicReportsService } from './reports/public-reports.service';
import { PublicReportsRepository } from './reports/public-reports.unscoped.repository';
import { ReportIssuancesRepository } from './reports/report-issuances.repository';
import { ReportSigner } from './reports/report-signer';
import { ReportsController } from './reports/reports.controller';
import { ReportsService } from './reports/reports.service';
import { SummariesRepository } from './summary/summaries.repository';
import { SummaryController } from './summary/summary.controller';
import { SummaryService } from './summary/summary.service';
import { ReviewController } from './review/review.controller';
import { ReviewService } from './review/review.service';
import { ReviewTaskCommentsRepository } from './review/review-task-comments.repository';
import { ReviewTaskHistoryRepository } from './review/review-task-history.repository';
import { ReviewTaskMoves } from './review/review-task-moves.service';
import { ReviewTasksRepository } from './review/review-tasks.repository';
import { VERIFICATION_DATABASE } from './database';
import { DocumentHistoryRepository } from './documents/document-history.repository';
import { DocumentMoves } from './documents/document-moves.service';
import { DocumentUploadsController, DocumentsController } from './documents/documents.controller';
import { DocumentExpirySweeper, FILE_STORAGE_PROVIDER } from './documents/documents.providers';
import { DocumentSweepsRepository } from './documents/document-sweeps.unscoped.repository';
import { DocumentsRepository } from './documents/documents.repository';
import { DocumentsService } from './documents/documents.service';
import { VerificationEvents } from './events/verification-events';
import { VerificationEventsRepository } from './events/verification-events.unscoped.repository';
import { IDENTITY_PROVIDER_FACTORY } from './providers/identity-provider.factory';
import { ProviderChecksController } from './providers/provider-checks.controller';
import { ProviderChecksService } from './providers/provider-checks.service';
import { ProviderSessionsRepository } from './providers/provider-sessions.repository';
import { PortalController } from './portal/portal.controller';
import { PortalService } from './portal/portal.service';
import { UploadLinksController } from './portal/upload-links.controller';
import { UploadLinksService } from './portal/upload-links.service';
import { VerificationTenancy } from './tenancy/verification.tenancy';
import { WebhookEndpointsModule } from './webhooks/webhook-endpoints.module';
import { AccessModule } from './access/access.module';
import { VerificationAccessGuard } from './access/verification-access.guard';

@Module({})
export class VerificationAppModule {
  static register(env: NodeJS.ProcessEnv = process.env): DynamicModule {
    return {
      module: VerificationAppModule,
      imports: [
        TypedConfigModule.forRoot(VerificationConfig, env),
        PlatformI18nModule.forRoot(join(__dirname, 'i18n')),
        EnvelopeModule,
        PersistenceModule.forService(VerificationConfig, VERIFICATION_DATABASE, { name: 'verification' }),
        VerificationTenancy,
        AccessModule,
        BrokerProbeModule.forRoot(VerificationConfig),
        WebhookEndpointsModule.register(),
        MetricsModule.forRoot(),
        HealthModule.forRoot('verification', [databaseCheck, brokerCheck], [], {
          config: VerificationConfig,
        }),
      ],
      controllers: [
        ChecksController,
        ProviderChecksController,
        CasesController,
        DocumentsController,
        DocumentUploadsController,
        UploadLinksController,
        PortalController,
        ReportsController,
        PublicReportsController,
        SummaryController,
        ReviewController,
      ],
      providers: [
        CasesService,
        CasesRepository,
        CaseHistoryRepository,
        IdempotencyKeysRepository,
        {
          // Case creation answers 409 at once while the first request with its key runs (no wait).
          provide: IdempotentOperations,
          inject: [IdempotencyKeysRepository, Transactions, VerificationConfig],
          useFactory: (
            keys: IdempotencyKeysRepository,
            transactions: Transactions,
            cfg: VerificationConfig,
          ) =>
            new IdempotentOperations(keys, {
              waitMs: 0,
              ttlHours: cfg.IDEMPOTENCY_KEY_TTL_HOURS,
              transaction: (_organizationId, work) => transactions.run(work),
            }),
        },
        CaseUploadTokensRepository,
        UploadTokenLookupRepository,
        UploadTokenIssuer,
        UploadLinksService,
        PortalService,
        CaseMoves,
        DocumentsRepository,
        DocumentSweepsRepository,
        DocumentHistoryRepository,
        DocumentMoves,
        DocumentsService,
        DocumentExpirySweeper,
        DocumentOrchestrator,
        FILE_STORAGE_PROVIDER,
        CheckStepsRepository,
        ChecksService,
        ProviderChecksService,
        ProviderSessionsRepository,
        IDENTITY_PROVIDER_FACTORY,
        VerificationEvents,
        VerificationEventsRepository,
        ReportsService,
        PublicReportsService,
        ReportIssuancesRepository,
        PublicReportsRepository,
        ReportSigner,
        SummariesRepository,
        SummaryService,
        ReviewTasksRepository,
        ReviewTaskCommentsRepository,
        ReviewTaskHistoryRepository,
        ReviewTaskMoves,
        ReviewService,
        { provide: APP_GUARD, useExisting: VerificationAccessGuard },
      ],
    };
  }
}
