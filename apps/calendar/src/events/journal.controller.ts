import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal } from '@platform/auth';
import { ApiReasons } from '@platform/api-docs';
import { ApiEnvelope, ApiErrors } from '@platform/envelope';
import { ApiCallerHeaders } from '../auth/api-headers';
import { CalendarAccess, type CalendarPrincipal } from '../auth/calendar.access';
import { CalendarError } from './event.errors';
import { JournalPageResponse } from './dto/journal-page.response';
import { JournalQueryRequest } from './dto/journal-query.request';
import { JournalService, type JournalPage } from './journal.service';

@ApiTags('Calendar')
@ApiCallerHeaders('product-or-person')
@Controller('Calendar')
export class JournalController {
  constructor(private readonly journal: JournalService) {}

  @Get('journal')
  @ApiReasons(CalendarError.JOURNAL_CURSOR_UNKNOWN, CalendarError.JOURNAL_CURSOR_EXPIRED)
  @CalendarAccess.Authenticated('product-key', 'platform-session')
  @CalendarAccess.RequireAnyScope('Read', 'FreeBusy')
  @ApiOperation({
    summary: 'The change journal: what changed after a cursor',
    description:
      'One entry per write, in cursor order (gap-free per account, the number a write returns in `X-Journal-Cursor`), each with its kind, the event as it is now or a tombstone. Readers and redaction as in the events query: a product needs Read (FreeBusy: busy blocks, without identity or version); a person sees their own and their teams’ events (others’ private ones as busy blocks). Entries you may not see are left out, but `next_cursor` moves past them. A cursor past the last entry (400) or older than the journal keeps (410) carries `value.resync_cursor`: take the events query as a snapshot, then read on after that cursor.',
  })
  @ApiEnvelope(JournalPageResponse)
  @ApiErrors(400, 401, 403, 410)
  page(
    @CurrentPrincipal() principal: CalendarPrincipal,
    @Query() q: JournalQueryRequest,
  ): Promise<JournalPage> {
    return this.journal.page(principal, q);
  }
}
