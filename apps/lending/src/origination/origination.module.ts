import { Module } from '@nestjs/common';
import { ApplicationsModule } from '../applications/applications.module';
import { CustomersModule } from '../customers/customers.module';
import { LoansModule } from '../loans/loans.module';
import { TenantDataModule } from '../tenancy/tenant-data.module';
import { LoanOriginationController } from './loan-origination.controller';
import { LoanOrigination } from './loan-origination.service';

/**
 * Origination (docs/lending/loans.md, "Contracts"): the hand-over from an approved application to a
 * loan contract. It depends on applications (ApplicationHandover) and loans (their repository and
 * reads); neither depends on it, and loans depends on nothing of applications (eslint.config.mjs
 * refuses such an import, scripts/check-boundaries.sh proves it).
 */
@Module({
  imports: [TenantDataModule, CustomersModule, ApplicationsModule, LoansModule],
  controllers: [LoanOriginationController],
  providers: [LoanOrigination],
})
export class OriginationModule {}
