import { Module } from '@nestjs/common';
import { AccountingBooksRepository } from '../accounting/accounting-books.repository';
import { CustomersModule } from '../customers/customers.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { LendingTenancy } from '../tenancy/lending.tenancy';
import { TenantDataModule } from '../tenancy/tenant-data.module';
import { WebhookQueueRepository } from '../webhooks/webhook-queue.unscoped.repository';
import { AccrualRuns } from './accruals/accrual-runs.service';
import { AccrualsController } from './accruals/accruals.controller';
import { AccrualsJob } from './accruals/accruals.job';
import { LoanAccrualStatesRepository } from './accruals/loan-accrual-states.repository';
import { LoanAccrualsRepository } from './accruals/loan-accruals.repository';
import { LoanAccruals } from './accruals/loan-accruals.service';
import { DisbursementStanding } from './disbursement-standing';
import { DisbursementService } from './disbursement.service';
import { LoanEvents } from './events/loan-events';
import { LoanEventsRepository } from './events/loan-events.unscoped.repository';
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
 * itself through LoanEvents in its own transaction. This area imports nothing of applications/: the
 * contract is made from an approved application by origination/, which uses the exports below.
 */
@Module({
  imports: [TenantDataModule, IdempotencyModule, LendingTenancy, CustomersModule],
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
    DisbursementStanding,
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
  // The one emitter, for the areas that announce loan events of their own (the accounting day close);
  // the contracts' repository and reads, and the products, for origination/ (CreateLoan).
  exports: [LoanEvents, AccountingBooksRepository, LoansRepository, LoansService, LoanProductsService],
})
export class LoansModule {}
