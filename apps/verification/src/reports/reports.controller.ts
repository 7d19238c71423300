import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiReasons } from '@platform/api-docs';
import { CurrentPrincipal } from '@platform/auth';
import { ApiEnvelope, RawResponse, list } from '@platform/envelope';
import { resolveLanguage } from '@platform/i18n';
import { CasesError } from '../cases/cases.errors';
import { VerificationAccess, type OrganizationPrincipal } from '../tenancy/scopes';
import { IssueReportRequest, ReportPdfQuery, RevokeReportRequest } from './dto/report.request';
import { ReportIssuanceResponse } from './dto/report.response';
import { ReportsError } from './reports.errors';
import { ReportsService, type IssuedReport } from './reports.service';

const CASE_ID = { name: 'id', format: 'uuid', description: 'Identifier of the case' };
const REPORT_ID = { name: 'reportId', format: 'uuid', description: 'The report id (printed in the PDF)' };
const PDF_DESCRIPTION =
  "Each call is an issuance: a new report id, logged with the SHA-256 of the exact bytes and their detached Ed25519 JWS (headers `X-Report-Id`, `X-Report-Sha256`, `X-Report-Signature`); the case's earlier reports become superseded. The QR code leads to the public verification address. Errors come in the envelope.";

function sendPdf(res: Response, issued: IssuedReport): void {
  res.status(200);
  res.setHeader('Content-Type', 'application/pdf');
  res.setHeader('Content-Length', String(issued.pdf.length));
  res.setHeader(
    'Content-Disposition',
    `attachment; filename="verification-report-${issued.view.reportId}.pdf"`,
  );
  res.setHeader('Cache-Control', 'private, no-store');
  res.setHeader('X-Report-Id', issued.view.reportId);
  res.setHeader('X-Report-Sha256', issued.view.sha256);
  res.setHeader('X-Report-Signature', issued.view.signature);
  res.setHeader('Content-Language', issued.view.language);
  res.end(issued.pdf);
}

@ApiTags('Summary reports')
@ApiHeader({ name: 'X-API-Key', required: true })
@ApiHeader({
  name: 'Service-Organization-Id',
  required: true,
  description: 'Your organization: the owner of the key',
})
@ApiHeader({
  name: 'Accept-Language',
  required: false,
  description: 'Language of the report when none is asked for, and of the `error` text',
})
@Controller('api/v1/verification-cases')
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @Get(':id/summary/pdf')
  @RawResponse()
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('cases:read')
  @ApiOperation({
    operationId: 'getSummaryPdf',
    summary: 'Issue the summary report: a signed PDF with a QR code to its public verification address',
    description: PDF_DESCRIPTION,
  })
  @ApiParam(CASE_ID)
  @ApiProduces('application/pdf')
  @ApiOkResponse({ description: 'The PDF', schema: { type: 'string', format: 'binary' } })
  @ApiReasons(CasesError.NOT_FOUND, ReportsError.SUMMARY_NOT_FOUND)
  async pdf(
    @CurrentPrincipal() p: OrganizationPrincipal,
    @Param('id') id: string,
    @Query() q: ReportPdfQuery,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    sendPdf(res, await this.reports.issue(p.ownerId, id, q.language ?? resolveLanguage(req.headers)));
  }

  @Post(':id/summary/pdf')
  @HttpCode(200)
  @RawResponse()
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('cases:read')
  @ApiOperation({
    operationId: 'issueSummaryPdf',
    summary: 'Issue the summary report with options: its language and a share password for the full view',
    description: `${PDF_DESCRIPTION} With \`sharePassword\`, a third party opens the full report at the public address with that password (only its scrypt hash is kept; a password never travels in a URL).`,
  })
  @ApiParam(CASE_ID)
  @ApiProduces('application/pdf')
  @ApiOkResponse({ description: 'The PDF', schema: { type: 'string', format: 'binary' } })
  @ApiReasons(CasesError.NOT_FOUND, ReportsError.SUMMARY_NOT_FOUND)
  async pdfWithOptions(
    @CurrentPrincipal() p: OrganizationPrincipal,
    @Param('id') id: string,
    @Body() body: IssueReportRequest,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const language = body.language ?? resolveLanguage(req.headers);
    sendPdf(res, await this.reports.issue(p.ownerId, id, language, body.sharePassword));
  }

  @Get(':id/reports')
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('cases:read')
  @ApiOperation({ operationId: 'listReports', summary: "The case's report issuance log, newest first" })
  @ApiParam(CASE_ID)
  @ApiReasons(CasesError.NOT_FOUND)
  @ApiEnvelope(ReportIssuanceResponse, { list: true })
  async list(@CurrentPrincipal() p: OrganizationPrincipal, @Param('id') id: string) {
    const { items, total } = await this.reports.list(p.ownerId, id);
    return list(items, total);
  }

  @Post(':id/reports/:reportId/revoke')
  @HttpCode(200)
  @VerificationAccess.Authenticated('api-key')
  @VerificationAccess.RequireScopes('cases:write')
  @ApiOperation({
    operationId: 'revokeReport',
    summary: 'Revoke a report: its public address says revoked and its full view closes',
  })
  @ApiParam(CASE_ID)
  @ApiParam(REPORT_ID)
  @ApiReasons(CasesError.NOT_FOUND, ReportsError.REPORT_NOT_FOUND, ReportsError.REPORT_ALREADY_REVOKED)
  @ApiEnvelope(ReportIssuanceResponse)
  revoke(
    @CurrentPrincipal() p: OrganizationPrincipal,
    @Param('id') id: string,
    @Param('reportId') reportId: string,
    @Body() body: RevokeReportRequest,
  ) {
    return this.reports.revoke(p.ownerId, id, reportId, body.reason);
  }
}
