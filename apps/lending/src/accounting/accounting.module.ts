import { Module } from '@nestjs/common';
import { LoansModule } from '../loans/loans.module';
import { LendingTenancy } from '../tenancy/lending.tenancy';
import { TenantDataModule } from '../tenancy/tenant-data.module';
import { AccountingCloseJob } from './accounting-close.job';
import { AccountingController } from './accounting.controller';
import { AccountingDaysService } from './accounting-days.service';

/**
 * The daily accounting file (docs/lending/events.md): closing accounting days (on request and by a
 * job), serving each closed day's CSV. The events come from LoanEvents, which records every
 * accounting event it writes (AccountingBooksRepository).
 */
@Module({
  imports: [LendingTenancy, TenantDataModule, LoansModule],
  controllers: [AccountingController],
  providers: [AccountingDaysService, AccountingCloseJob],
  exports: [AccountingDaysService],
})
export class AccountingModule {}
