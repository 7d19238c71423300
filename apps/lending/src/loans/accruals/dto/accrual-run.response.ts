import { ApiProperty } from '@nestjs/swagger';

/** What a RunAccruals did; amounts in minor units of each loan's currency, summed. */
export class AccrualRunResponse {
  @ApiProperty({ format: 'date' }) asOf: string;
  @ApiProperty({ example: 12, description: 'Loans that had days to catch up' }) loans: number;
  @ApiProperty({
    example: 0,
    description: 'Loans passed over because another run or an operation held them (they catch up themselves)',
  })
  skipped: number;
  @ApiProperty({ example: 0, description: 'Loans whose catch-up failed (logged; the next run tries again)' })
  failed: number;
  @ApiProperty({ example: 372, description: 'Ledger transactions posted' }) transactions: number;
  @ApiProperty({ example: 240000, description: 'Interest accrued' }) interest: number;
  @ApiProperty({ example: 1350, description: 'Penalties accrued' }) penalties: number;
  @ApiProperty({ example: 74560, description: 'Principal moved to overdue' }) principalOverdue: number;
  @ApiProperty({ example: 20000, description: 'Interest moved to overdue' }) interestOverdue: number;
  @ApiProperty({
    example: -384,
    description: 'Interest trued up at due dates to what the schedule bills (negative: taken back)',
  })
  adjustments: number;
  @ApiProperty({
    example: 0,
    description:
      "Interest and penalty charges not posted because the loan's ledger reached the accrual ceiling (half of 2^52 - 1 minor units); those days accrue nothing (logged)",
  })
  capped: number;
}
