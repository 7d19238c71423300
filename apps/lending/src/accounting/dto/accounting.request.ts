import { ApiProperty } from '@nestjs/swagger';
import { IsCalendarDate } from '@platform/envelope';
import { PageRequest } from '../../common/dto/page.request';

/** CloseAccountingDay: closes every open day up to this one. */
export class CloseAccountingDayRequest {
  @ApiProperty({
    example: '2026-12-05',
    description:
      'The last day to close (YYYY-MM-DD, UTC); it must have ended. Earlier open days close too, in order',
  })
  @IsCalendarDate()
  date: string;
}

export class AccountingFileQuery {
  @ApiProperty({ example: '2026-12-05', description: 'The business day of the file (YYYY-MM-DD)' })
  @IsCalendarDate()
  Date: string;
}

/** Closed days, newest first. */
export class GetAccountingDaysRequest extends PageRequest {}
