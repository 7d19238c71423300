import { Module } from '@nestjs/common';
import { CustomersModule } from '../customers/customers.module';
import { LoansModule } from '../loans/loans.module';
import { LoanProductsRepository } from '../loans/products/loan-products.repository';
import { TenantDataModule } from '../tenancy/tenant-data.module';
import { ApplicationHandover } from './application-handover';
import { ApplicationTexts } from './application-texts';
import { ApplicationViews } from './application-views';
import { ApplicationsController } from './applications.controller';
import { ApplicationsRepository } from './applications.repository';
import { ApplicationsService } from './applications.service';
import { ApplicationChecksController } from './checks/application-checks.controller';
import { ApplicationChecksRepository } from './checks/application-checks.repository';
import { CheckRunnerService } from './checks/check-runner.service';
import { StepExecutor } from './checks/step-executor';
import { ApplicationDecisionsController } from './decisions/application-decisions.controller';
import { ApplicationDecisionsRepository } from './decisions/application-decisions.repository';
import { DecisionsService } from './decisions/decisions.service';
import { ExternalCallLog } from './external-calls/external-call-log';
import { ExternalCallsRepository } from './external-calls/external-calls.repository';
import { ExternalCallsService } from './external-calls/external-calls.service';
import { CHECK_PROVIDERS } from './providers/check-provider.factories';
import { ApplicationActionsService } from './workflow/application-actions.service';
import { ApplicationMovesController } from './workflow/application-moves.controller';
import { ApplicationWorkflowService } from './workflow/application-workflow.service';
import { StatusHistoryRepository } from './workflow/status-history.repository';

/**
 * The applications area (issue 12, docs/lending/applications.md): applications and their workflow,
 * check steps behind provider interfaces (stubs or live, LENDING_PROVIDERS), underwriting decisions
 * and the external-call log. Customers are read through the customers area's exports only; the
 * lender's products through theirs (an offer's rate). Moves are announced to the bureau through the
 * loans area's one emitter (LoanEvents).
 */
@Module({
  imports: [TenantDataModule, CustomersModule, LoansModule],
  controllers: [
    ApplicationsController,
    ApplicationMovesController,
    ApplicationChecksController,
    ApplicationDecisionsController,
  ],
  providers: [
    ...CHECK_PROVIDERS,
    LoanProductsRepository,
    ApplicationsRepository,
    StatusHistoryRepository,
    ApplicationChecksRepository,
    ApplicationDecisionsRepository,
    ExternalCallsRepository,
    ApplicationTexts,
    ApplicationViews,
    ApplicationWorkflowService,
    ApplicationsService,
    ApplicationActionsService,
    StepExecutor,
    CheckRunnerService,
    DecisionsService,
    ExternalCallLog,
    ExternalCallsService,
    ApplicationHandover,
  ],
  // The one door to an approved application, for origination/ (CreateLoan).
  exports: [ApplicationHandover],
})
export class ApplicationsModule {}
