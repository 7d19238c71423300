import { Module } from '@nestjs/common';
import { AccountingBooksRepository } from '../accounting/accounting-books.repository';
import { ApplicationTexts } from '../applications/application-texts';
import { ApplicationsRepository } from '../applications/applications.repository';
import { ApplicationDecisionsRepository } from '../applications/decisions/application-decisions.repository';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { LendingTenancy } from '../tenancy/lending.tenancy';
import { TenantDataModule } from '../tenancy/tenant-data.module';
import { WebhookQueueRepository } from '../webhooks/webhook-queue.repository';
import { AccrualRuns } from './accruals/accrual-runs.service';
import { AccrualsController } from './accruals/accruals.controller';
import { AccrualsJob } from './accruals/accruals.job';
import { LoanAccrualStatesRepository } from './accruals/loan-accrual-states.repository';
import { LoanAccrualsRepository } from './accruals/loan-accruals.repository';
import { LoanAccruals } from './accruals/loan-accruals.service';
import { DisbursementService } from './disbursement.service';
import { LoanEvents } from './events/loan-events';
import { LoanEventsRepository } from './events/loan-events.repository';
import { LedgerRepository } from './ledger/ledger.repository';
import { LoanBook } from './ledger/loan-book';
import { LoanLedgerController } from './loan-ledger.controller';
import { LoanLedgerService } from './loan-ledger.service';
import { LoanMoneyController } from './loan-money.controller';
import { LoanMoves } from './loan-moves';
import { LoanTexts } from './loan-texts';
import { LoanViews } from './loan-views';
import { LoansController } from './loans.controller';
import { LoansRepository } from './loans.repository';
import { LoansService } from './loans.service';
import { MoneyPipeline } from './operations/money-pipeline';
import { PaymentsController } from './payments/payments.controller';
import { PaymentsService } from './payments/payments.service';
import { ReversalsService } from './payments/reversals.service';
import { LoanProductsController } from './products/loan-products.controller';
import { LoanProductsRepository } from './products/loan-products.repository';
import { LoanProductsService } from './products/loan-products.service';
import { ScheduleChangesController } from './schedule-changes/schedule-changes.controller';
import { ScheduleChangesService } from './schedule-changes/schedule-changes.service';
import { InstalmentsRepository } from './schedule/instalments.repository';
import { ScheduleVersionsRepository } from './schedule/schedule-versions.repository';
import { WriteOffService } from './write-off.service';

/**
 * The loans area (issue 14, docs/lending/loans.md): products, loan contracts made from approved
 * applications, schedules, the double-entry ledger, payments with their allocation, reversals and
 * write-offs. Every money operation runs once per Idempotency-Key (IdempotencyModule) and announces
 * itself through LoanEvents in its own transaction. Applications are read through their repositories.
 */
@Module({
  imports: [TenantDataModule, IdempotencyModule, LendingTenancy],
  controllers: [
    LoanProductsController,
    LoansController,
    LoanMoneyController,
    PaymentsController,
    LoanLedgerController,
    AccrualsController,
    ScheduleChangesController,
  ],
  providers: [
    ApplicationsRepository,
    ApplicationDecisionsRepository,
    ApplicationTexts,
    LoanProductsRepository,
    LoansRepository,
    LedgerRepository,
    InstalmentsRepository,
    LoanTexts,
    LoanViews,
    LoanMoves,
    LoanBook,
    LoanEventsRepository,
    AccountingBooksRepository,
    WebhookQueueRepository,
    LoanEvents,
    // Every money operation runs through the one pipeline (operations/money-pipeline.ts).
    MoneyPipeline,
    LoanProductsService,
    LoansService,
    DisbursementService,
    PaymentsService,
    ReversalsService,
    WriteOffService,
    LoanLedgerService,
    // Accruals and schedule changes (docs/lending/loans.md, "Accruals", "Schedule changes").
    LoanAccrualsRepository,
    LoanAccrualStatesRepository,
    ScheduleVersionsRepository,
    LoanAccruals,
    AccrualRuns,
    AccrualsJob,
    ScheduleChangesService,
  ],
  // The one emitter, for the areas that announce loan events of their own (the accounting day close).
  exports: [LoanEvents, AccountingBooksRepository],
})
export class LoansModule {}
