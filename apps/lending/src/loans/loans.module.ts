import { Module } from '@nestjs/common';
import { ApplicationTexts } from '../applications/application-texts';
import { ApplicationsRepository } from '../applications/applications.repository';
import { ApplicationDecisionsRepository } from '../applications/decisions/application-decisions.repository';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { TenantDataModule } from '../tenancy/tenant-data.module';
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
import { PaymentsController } from './payments/payments.controller';
import { PaymentsService } from './payments/payments.service';
import { ReversalsService } from './payments/reversals.service';
import { LoanProductsController } from './products/loan-products.controller';
import { LoanProductsRepository } from './products/loan-products.repository';
import { LoanProductsService } from './products/loan-products.service';
import { InstalmentsRepository } from './schedule/instalments.repository';
import { WriteOffService } from './write-off.service';

/**
 * The loans area (issue 14, docs/lending/loans.md): products, loan contracts made from approved
 * applications, schedules, the double-entry ledger, payments with their allocation, reversals and
 * write-offs. Every money operation runs once per Idempotency-Key (IdempotencyModule) and announces
 * itself through LoanEvents in its own transaction. Applications are read through their repositories.
 */
@Module({
  imports: [TenantDataModule, IdempotencyModule],
  controllers: [
    LoanProductsController,
    LoansController,
    LoanMoneyController,
    PaymentsController,
    LoanLedgerController,
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
    LoanEvents,
    LoanProductsService,
    LoansService,
    DisbursementService,
    PaymentsService,
    ReversalsService,
    WriteOffService,
    LoanLedgerService,
  ],
})
export class LoansModule {}
