import { Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiExtraModels,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiQuery,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { I18nService } from 'nestjs-i18n';
import { ApiReasons } from '@platform/api-docs';
import { Public } from '@platform/auth';
import { ApiEnvelope, DomainError, RawResponse, ok, AcceptsAnyBody, AcceptsBody } from '@platform/envelope';
import { SUPPORTED_LANGUAGES, resolveLanguage, type Language } from '@platform/i18n';
import { CheckReportRequest, OpenReportRequest } from './dto/report.request';
import { CheckReportResponse, OpenedReportResponse, PublicReportResponse } from './dto/report.response';
import {
  PAGE_CSP,
  renderCheckPage,
  renderNotIssuedPage,
  renderProblemPage,
  renderReportPage,
} from './report-page';
import { reportTexts, isLanguage } from './report-texts';
import { UploadError, checkInput, formField, mediaType, type UploadProblem } from './report-upload';
import { PublicReportsService } from './public-reports.service';
import { ReportsError, reportsError } from './reports.errors';

/** Largest PDF a check accepts: an issued report is a few tens of KiB. */
export const CHECK_MAX_BYTES = 10 * 1024 * 1024;
const FORM_MAX_BYTES = 4096;
const PASSWORD_MAX_CHARS = 256;

const REPORT_ID = { name: 'reportId', format: 'uuid', description: 'The report id (from the QR code)' };
const LANG = { name: 'lang', required: false, enum: SUPPORTED_LANGUAGES, description: 'Page language' };

const UPLOAD_ERRORS: Record<UploadProblem, ReportsError> = {
  EMPTY: ReportsError.REPORT_CHECK_EMPTY,
  TOO_LARGE: ReportsError.REPORT_CHECK_TOO_LARGE,
  UNSUPPORTED_MEDIA: ReportsError.REPORT_CHECK_UNSUPPORTED_MEDIA,
  MALFORMED: ReportsError.REPORT_CHECK_INPUT_INVALID,
  ABORTED: ReportsError.REPORT_CHECK_INPUT_INVALID,
};

/** q-weight of a media range in Accept (exact type, then `type/*`, then `*\/*`), 0 when absent. */
function acceptWeight(accept: string, type: string): number {
  let best = -1;
  let weight = 0;
  for (const part of accept.split(',')) {
    const [range, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const specificity =
      range === type ? 2 : range === `${type.split('/')[0]}/*` ? 1 : range === '*/*' ? 0 : -1;
    if (specificity > best) {
      best = specificity;
      weight = q ? Number(q.slice(2)) || 0 : 1;
    }
  }
  return weight;
}

/** A browser (Accept names text/html, above JSON): pages. Anything else: JSON in the envelope. */
function wantsHtml(req: Request): boolean {
  const accept = String(req.headers.accept ?? '');
  if (!/text\/html/i.test(accept)) return false;
  return acceptWeight(accept, 'text/html') > acceptWeight(accept, 'application/json');
}

/**
 * The public report verification address (docs/verification/reports.md), anonymous and rate limited by
 * the gateway per client address: /verify/v1/reports/<id>, its check and its password view, and the
 * published keys. No answer is cached: a report's status changes.
 */
@ApiTags('Report verification')
@ApiExtraModels(CheckReportRequest, OpenReportRequest)
@ApiHeader({ name: 'Accept-Language', required: false, description: 'Page language and `error` text' })
@Controller('verify/v1')
export class PublicReportsController {
  constructor(
    private readonly reports: PublicReportsService,
    private readonly i18n: I18nService,
  ) {}

  @Get('jwks.json')
  @Public()
  @RawResponse()
  @ApiOperation({
    operationId: 'getReportKeys',
    summary: 'The public keys that verify report signatures (JWK Set, Ed25519 OKP; current and retired keys)',
  })
  @ApiOkResponse({ description: 'RFC 7517 JWK Set (not in the envelope)' })
  jwks(@Res() res: Response): void {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.type('application/jwk-set+json').send(JSON.stringify(this.reports.jwks()));
  }

  @Get('reports/:reportId')
  @Public()
  @RawResponse()
  @ApiOperation({
    operationId: 'getReportStatus',
    summary:
      'Whether the platform issued a report, when, for whom, and its status (current, superseded, revoked)',
    description:
      'A browser (`Accept: text/html`) gets a page in six languages (`lang`, else `Accept-Language`) with a form to check a PDF; anything else gets JSON in the envelope. No applicant data. An unknown id: 404 `REPORT_NOT_FOUND` ("not issued by this platform").',
  })
  @ApiParam(REPORT_ID)
  @ApiQuery(LANG)
  @ApiProduces('application/json', 'text/html')
  @ApiReasons(ReportsError.REPORT_NOT_FOUND)
  @ApiEnvelope(PublicReportResponse)
  async status(
    @Param('reportId') reportId: string,
    @Query('lang') lang: unknown,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const language = this.language(req, lang);
    await this.answer(req, res, reportId, language, async () => {
      const view = await this.reports.status(reportId);
      if (!wantsHtml(req)) return void res.json(ok(view));
      this.page(
        res,
        200,
        language,
        renderReportPage(language, view, reportTexts(this.i18n, 'page', language)),
      );
    });
  }

  @Post('reports/:reportId/check')
  @Public()
  @HttpCode(200)
  @RawResponse()
  @ApiOperation({
    operationId: 'checkReport',
    summary: 'Check a PDF against the issued report: unaltered or altered',
    description: `Send the PDF itself (\`application/pdf\` or \`application/octet-stream\`, at most ${CHECK_MAX_BYTES / 1048576} MiB), the page's form (\`multipart/form-data\`), or JSON \`{ "sha256": "<hex>" }\`. \`unaltered\` when the SHA-256 equals the issued one and, for a file, the stored detached signature verifies over its bytes; \`altered\` otherwise. A file is not stored.`,
  })
  @ApiParam(REPORT_ID)
  @ApiQuery(LANG)
  @AcceptsAnyBody('application/pdf', 'application/json', 'multipart/form-data')
  @ApiBody({
    schema: {
      oneOf: [{ type: 'string', format: 'binary' }, { $ref: getSchemaPath(CheckReportRequest) }],
    },
  })
  @ApiReasons(
    ReportsError.REPORT_NOT_FOUND,
    ReportsError.REPORT_CHECK_INPUT_INVALID,
    ReportsError.REPORT_CHECK_EMPTY,
    ReportsError.REPORT_CHECK_TOO_LARGE,
    ReportsError.REPORT_CHECK_UNSUPPORTED_MEDIA,
  )
  @ApiEnvelope(CheckReportResponse)
  async check(
    @Param('reportId') reportId: string,
    @Query('lang') lang: unknown,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const language = this.language(req, lang);
    await this.answer(req, res, reportId, language, async () => {
      await this.reports.status(reportId);
      const input = await checkInput(req, CHECK_MAX_BYTES).catch((e: unknown) => {
        throw e instanceof UploadError
          ? reportsError(UPLOAD_ERRORS[e.problem], { maxMb: String(CHECK_MAX_BYTES / 1048576) })
          : e;
      });
      const result = await this.reports.check(reportId, input);
      if (!wantsHtml(req)) return void res.json(ok(result));
      this.page(
        res,
        200,
        language,
        renderCheckPage(language, result, reportTexts(this.i18n, 'page', language)),
      );
    });
  }

  @Post('reports/:reportId/open')
  @Public()
  @HttpCode(200)
  @RawResponse()
  @ApiOperation({
    operationId: 'openReport',
    summary: 'Open the full report with the password its issuer set (strict rate limit per client address)',
    description:
      'JSON `{ "password": "..." }` answers the report, everything it shows and the PDF (base64) in the envelope; the page\'s form (`application/x-www-form-urlencoded`) or `Accept: application/pdf` answers the issued PDF itself. A wrong password, or a report without one: 403 `REPORT_PASSWORD_INVALID`. A revoked report no longer opens (410).',
  })
  @ApiParam(REPORT_ID)
  @ApiQuery(LANG)
  @AcceptsBody('application/json', 'application/x-www-form-urlencoded')
  @ApiBody({ type: OpenReportRequest })
  @ApiProduces('application/json', 'application/pdf')
  @ApiReasons(
    ReportsError.REPORT_NOT_FOUND,
    ReportsError.REPORT_PASSWORD_MISSING,
    ReportsError.REPORT_PASSWORD_INVALID,
    ReportsError.REPORT_REVOKED,
    ReportsError.REPORT_CHECK_UNSUPPORTED_MEDIA,
  )
  @ApiEnvelope(OpenedReportResponse)
  async open(
    @Param('reportId') reportId: string,
    @Query('lang') lang: unknown,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const language = this.language(req, lang);
    await this.answer(req, res, reportId, language, async () => {
      await this.reports.status(reportId);
      const form = mediaType(req.headers['content-type']) === 'application/x-www-form-urlencoded';
      const password = await this.password(req, form);
      const opened = await this.reports.open(reportId, password);
      if (
        form ||
        acceptWeight(String(req.headers.accept ?? ''), 'application/pdf') >
          acceptWeight(String(req.headers.accept ?? ''), 'application/json')
      ) {
        res.status(200);
        res.setHeader('Cache-Control', 'no-store');
        res.setHeader('Content-Type', 'application/pdf');
        res.setHeader(
          'Content-Disposition',
          `inline; filename="verification-report-${opened.view.reportId}.pdf"`,
        );
        return void res.end(opened.pdf);
      }
      res.json(
        ok({ report: opened.view, content: opened.content, pdfBase64: opened.pdf.toString('base64') }),
      );
    });
  }

  private async password(req: Request, form: boolean): Promise<string> {
    let value: unknown;
    if (form) {
      value = await formField(req, 'password', FORM_MAX_BYTES).catch(() => {
        throw reportsError(ReportsError.REPORT_PASSWORD_MISSING);
      });
    } else if (mediaType(req.headers['content-type']) === 'application/json') {
      value = (req.body as { password?: unknown } | undefined)?.password;
    } else {
      throw reportsError(ReportsError.REPORT_CHECK_UNSUPPORTED_MEDIA);
    }
    if (typeof value !== 'string' || value === '' || [...value].length > PASSWORD_MAX_CHARS)
      throw reportsError(ReportsError.REPORT_PASSWORD_MISSING);
    return value;
  }

  private language(req: Request, requested: unknown): Language {
    return isLanguage(requested) ? requested : resolveLanguage(req.headers);
  }

  private page(res: Response, status: number, language: Language, html: string): void {
    res.status(status);
    res.setHeader('Content-Security-Policy', PAGE_CSP);
    res.setHeader('Content-Language', language);
    res.type('text/html; charset=utf-8').send(html);
  }

  /**
   * Runs a route with the headers every answer carries; for a browser, a refusal becomes a page in its
   * language (an unknown id: "not issued by this platform"), otherwise the envelope filter answers it.
   */
  private async answer(
    req: Request,
    res: Response,
    reportId: string,
    language: Language,
    run: () => Promise<void>,
  ): Promise<void> {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Vary', 'Accept, Accept-Language');
    res.setHeader('X-Robots-Tag', 'noindex, nofollow');
    try {
      await run();
    } catch (e) {
      if (!(e instanceof DomainError) || !wantsHtml(req) || res.headersSent) throw e;
      const t = reportTexts(this.i18n, 'page', language);
      if (e.reason === ReportsError.REPORT_NOT_FOUND)
        return this.page(res, e.status, language, renderNotIssuedPage(language, reportId, t));
      const message = String(this.i18n.translate(e.messageKey as never, { lang: language, args: e.args }));
      this.page(res, e.status, language, renderProblemPage(language, reportId, message, t));
    }
  }
}
