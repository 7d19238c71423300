import { ApiProperty } from '@nestjs/swagger';
import { InstalmentResponse } from './ledger.response';

/** How the two rates were computed: the periods they count in. */
export class CostOfCreditMethodResponse {
  @ApiProperty({
    enum: ['month', 'day'],
    example: 'month',
    description: 'The base period of the full cost (353-FZ art. 6): calendar months or days',
  })
  basePeriodUnit: string;
  @ApiProperty({ example: 1, description: 'Months or days in one base period' })
  basePeriodCount: number;
  @ApiProperty({
    example: '12',
    description: 'Base periods in a 365-day year (ЧБП): 12 / months or 365 / days, exact',
  })
  periodsPerYear: string;
  @ApiProperty({
    enum: ['month', 'semimonth', 'day', 'year', 'term'],
    example: 'month',
    description: 'The unit-period of the APR (Regulation Z Appendix J): months, days, or the whole term',
  })
  unitPeriodUnit: string;
  @ApiProperty({ example: 1, description: 'Months or days in one unit-period (1 for a semimonth or a year)' })
  unitPeriodCount: number;
  @ApiProperty({ example: '12', description: 'Unit-periods in a year, exact' })
  unitPeriodsPerYear: string;
  @ApiProperty({
    example: true,
    description: 'A regular transaction for the APR tolerance: one advance, equal payments and periods',
  })
  aprRegular: boolean;
  @ApiProperty({
    example: '0.125',
    description: 'The accuracy Regulation Z allows the disclosed APR, percentage points (1/8 or 1/4)',
  })
  aprTolerance: string;
}

/** The full cost of credit of a loan, the way a borrower and a regulator read it. */
export class CostOfCreditResponse {
  @ApiProperty({
    example: '21.351',
    description: 'The full cost of credit (ПСК, 353-FZ art. 6), percent a year, three decimals',
  })
  fullCostRate: string;
  @ApiProperty({
    example: 123456,
    description: 'The full cost in money: every payment of the schedule less the principal, minor units',
  })
  fullCostAmount: number;
  @ApiProperty({
    example: '21.35',
    description: 'The annual percentage rate (12 CFR 1026 Appendix J, actuarial method), two decimals',
  })
  apr: string;
  @ApiProperty({
    enum: ['terms', 'schedule'],
    example: 'schedule',
    description:
      "`terms`: the schedule the contract's terms generate if paid out today; `schedule`: the schedule in force and the actual disbursement",
  })
  basis: string;
  @ApiProperty({ format: 'date', description: 'The disbursement day the flows start from' })
  disbursementDate: string;
  @ApiProperty({ type: CostOfCreditMethodResponse }) method: CostOfCreditMethodResponse;
}

/** GetLoanSchedule's answer: the instalments, their count, and the cost of credit they make. */
export class LoanScheduleResponse {
  @ApiProperty({ type: [InstalmentResponse] }) items: InstalmentResponse[];
  @ApiProperty({ example: 12 }) total: number;
  @ApiProperty({
    type: CostOfCreditResponse,
    nullable: true,
    description:
      'The full cost of credit and the APR of the schedule in force and the actual disbursement (as GetLoan shows it); null before the disbursement and with `Version`',
  })
  costOfCredit: CostOfCreditResponse | null;
}
