import { ApiProperty } from '@nestjs/swagger';
import { InstalmentResponse } from '../../dto/ledger.response';
import { LoanResponse } from '../../dto/loan.response';

/** RestructureLoan's and GrantPaymentHoliday's answer: the change, the loan and its new schedule. */
export class ScheduleChangeResponse {
  @ApiProperty({ format: 'uuid', description: 'The ledger transaction of the change' }) transactionId: string;
  @ApiProperty({ example: 2, description: 'The schedule version it made (GetLoanSchedule?Version=)' })
  version: number;
  @ApiProperty({ format: 'date', description: 'Today (UTC): the new schedule runs from it' })
  effectiveDate: string;
  @ApiProperty({ format: 'date' }) previousMaturityDate: string;
  @ApiProperty({ format: 'date' }) maturityDate: string;
  @ApiProperty({ example: 700000, description: 'Principal the new schedule repays, minor units' })
  principal: number;
  @ApiProperty({
    example: 4521,
    description:
      'Interest accrued and not yet due (and past-due interest folded in) carried to the first paying new instalment',
  })
  carriedInterest: number;
  @ApiProperty({ example: 0, description: 'Past-due principal the new schedule took over' })
  reclassifiedPrincipal: number;
  @ApiProperty({ example: 0, description: 'Past-due interest the new schedule took over' })
  reclassifiedInterest: number;
  @ApiProperty({ type: LoanResponse }) loan: LoanResponse;
  @ApiProperty({ type: [InstalmentResponse], description: 'The schedule in force now' })
  schedule: InstalmentResponse[];
}
