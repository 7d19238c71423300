import { Body, Controller, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope, RawResponse, list } from '@platform/envelope';
import { LendingApi } from '../common/lending-api';
import { LendingAccess, type PartnerPrincipal } from '../tenancy/scopes';
import { accountingDayView, AccountingDaysService } from './accounting-days.service';
import { AccountingError as E } from './accounting.errors';
import {
  AccountingFileQuery,
  CloseAccountingDayRequest,
  GetAccountingDaysRequest,
} from './dto/accounting.request';
import { AccountingDayResponse } from './dto/accounting.response';

/**
 * The daily accounting file (docs/lending/events.md, "Daily accounting file"): the organization's
 * accounting events of one business day as CSV with its SHA-256, for accounting systems that exchange
 * files instead of reading Kafka.
 */
@LendingApi('Reporting')
@Controller('Reporting')
export class AccountingController {
  constructor(private readonly days: AccountingDaysService) {}

  @Post('CloseAccountingDay')
  @HttpCode(200)
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('reporting:write')
  @ApiOperation({
    summary: 'Close the accounting days up to a date: each gets its day-closed event and its file',
    description:
      'Days close in order, each once; a day already closed is left as it is (closing it again answers an empty list). Events written later with a closed date are booked on the open day. A job closes the days that have ended by itself.',
  })
  @ApiReasons(E.DAY_NOT_OVER)
  @ApiEnvelope(AccountingDayResponse, { list: true })
  async close(@CurrentPrincipal() p: PartnerPrincipal, @Body() body: CloseAccountingDayRequest) {
    const items = (await this.days.closeThrough(p.ownerId, body.date)).map(accountingDayView);
    return list(items, items.length);
  }

  @Get('GetAccountingDays')
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('reporting:read')
  @ApiOperation({ summary: 'The closed accounting days, newest first, with their file names and checksums' })
  @ApiEnvelope(AccountingDayResponse, { list: true })
  async list(@CurrentPrincipal() p: PartnerPrincipal, @Query() q: GetAccountingDaysRequest) {
    const { items, total } = await this.days.days(p.ownerId, q.Offset ?? 0, q.Count ?? 20);
    return list(items.map(accountingDayView), total);
  }

  @Get('GetAccountingFile')
  @RawResponse()
  @LendingAccess.Authenticated('partner-key')
  @LendingAccess.RequireScopes('reporting:read')
  @ApiOperation({
    summary: "A closed day's accounting file (CSV), its SHA-256 in X-Checksum-SHA256",
    description:
      'The answer is the file itself (not the envelope); errors come in the envelope. RFC 4180 CSV, UTF-8, CRLF, one record per posting of each accounting event of the day in the order written, the day close last. The same bytes every time.',
  })
  @ApiProduces('text/csv')
  @ApiOkResponse({ description: 'The file', schema: { type: 'string', format: 'binary' } })
  @ApiReasons(E.DAY_NOT_OVER, E.DAY_NOT_CLOSED, E.FILE_NOT_FOUND)
  async file(
    @CurrentPrincipal() p: PartnerPrincipal,
    @Query() q: AccountingFileQuery,
    @Res() res: Response,
  ): Promise<void> {
    const { file } = await this.days.file(p.ownerId, q.Date);
    res.status(200);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Length', String(file.content.length));
    res.setHeader('Content-Disposition', `attachment; filename="${file.name}"`);
    res.setHeader('X-Checksum-SHA256', file.sha256);
    res.setHeader('ETag', `"${file.sha256}"`);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Cache-Control', 'private, no-store');
    res.end(file.content);
  }
}
