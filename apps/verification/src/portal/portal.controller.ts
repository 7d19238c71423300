import { randomBytes } from 'node:crypto';
import {
  Controller,
  Get,
  Headers,
  HttpCode,
  HttpException,
  Injectable,
  InternalServerErrorException,
  Logger,
  Param,
  Post,
  Query,
  Req,
  Res,
  UseInterceptors,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import {
  ApiBody,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { I18nService } from 'nestjs-i18n';
import { catchError, throwError, type Observable } from 'rxjs';
import { ApiReasons } from '@platform/api-docs';
import { Public } from '@platform/auth';
import {
  ApiEnvelope,
  DomainError,
  RawResponse,
  RequestValidationError,
  requestIdOf,
  AcceptsAnyBody,
} from '@platform/envelope';
import { SUPPORTED_LANGUAGES, resolveLanguage, type Language } from '@platform/i18n';
import { DocumentsError } from '../documents/documents.errors';
import { PortalDocumentResponse, PortalFinishedResponse } from './dto/portal.response';
import {
  LINK_STATE_STATUS,
  portalCsp,
  portalKindsOf,
  renderStatePage,
  renderUploadPage,
  type PortalTexts,
} from './portal-page';
import { LINK_STATE_ERROR } from './link-state';
import { PortalError, portalError } from './portal.errors';
import { PortalService, type OpenLink } from './portal.service';
import { readUploadBody } from '../documents/read-upload-body';

const TOKEN = {
  name: 'token',
  description: 'The one-time token of the link (`vup_…`): the only credential of these routes',
};
const LINK_REASONS = [
  PortalError.LINK_NOT_FOUND,
  PortalError.LINK_EXPIRED,
  PortalError.LINK_USED,
  PortalError.CASE_CLOSED,
] as const;

/**
 * Every portal answer, page or JSON, success or error: the token is in the path, so nothing may be
 * cached or sent on as a Referer. And the token is never logged: the envelope filter logs an
 * unexpected error with the request's path, so such an error is logged here without the path and
 * handed on as a bare 500.
 */
@Injectable()
export class PortalHeadersInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Portal');

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const res = context.switchToHttp().getResponse<Response>();
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('X-Robots-Tag', 'noindex, nofollow');
    return next.handle().pipe(
      catchError((err: unknown) => {
        if (
          err instanceof DomainError ||
          err instanceof HttpException ||
          err instanceof RequestValidationError
        )
          return throwError(() => err);
        const e = err instanceof Error ? err : new Error(String(err));
        this.logger.error(
          `request ${requestIdOf(context.switchToHttp().getRequest())} failed: ${e.message}`,
          e.stack,
        );
        return throwError(() => new InternalServerErrorException());
      }),
    );
  }
}

const isLanguage = (v: unknown): v is Language =>
  typeof v === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(v);

/**
 * The borrower upload portal (docs/verification/portal.md), anonymous: the token in the path is the
 * credential. The page is HTML; its two calls answer in the envelope, in the page's language.
 */
@ApiTags('Borrower portal')
@Controller('portal/v1/upload')
@UseInterceptors(PortalHeadersInterceptor)
export class PortalController {
  constructor(
    private readonly portal: PortalService,
    private readonly i18n: I18nService,
  ) {}

  @Get(':token')
  @Public()
  @ApiOperation({
    operationId: 'getPortalPage',
    summary: 'The borrower upload page of a one-time link (HTML, six languages)',
    description:
      'Language: `lang`, else the language the link was issued with, else `Accept-Language`, else English. A used, expired or closed link answers 410 with a page saying so, an unknown one 404; these pages name no case. A client that does not accept `text/html` gets those answers as the envelope.',
  })
  @ApiParam(TOKEN)
  @ApiQuery({ name: 'lang', required: false, enum: SUPPORTED_LANGUAGES, description: 'Page language' })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'The upload page', schema: { type: 'string' } })
  @ApiReasons(...LINK_REASONS)
  @RawResponse()
  async page(
    @Param('token') token: string,
    @Query('lang') lang: unknown,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const link = await this.portal.resolve(token);
    // A browser asks for HTML and gets a page for every state; any other client (a script checking a
    // link) gets a link that cannot be used as the envelope's error, like the page's own calls.
    if (link.state !== 'open' && !/\btext\/html\b/i.test(req.headers.accept ?? ''))
      throw portalError(LINK_STATE_ERROR[link.state]);
    const language = isLanguage(lang)
      ? lang
      : isLanguage(link.token?.language)
        ? link.token.language
        : resolveLanguage(req.headers);
    const texts = this.texts(language);
    const nonce = randomBytes(16).toString('base64');
    const html =
      link.state === 'open' && link.case
        ? renderUploadPage({
            lang: language,
            nonce,
            texts,
            kinds: portalKindsOf(link.case.applicantType),
            applicantType: link.case.applicantType,
            maxMb: this.portal.maxFileMb,
            uploaded: await this.portal.uploaded(link as OpenLink),
          })
        : renderStatePage(link.state === 'open' ? 'invalid' : link.state, language, nonce, texts);
    res.status(LINK_STATE_STATUS[link.state]);
    res.setHeader('Content-Security-Policy', portalCsp(nonce));
    res.setHeader('Content-Language', language);
    res.setHeader('Vary', 'Accept, Accept-Language');
    res.type('text/html; charset=utf-8').send(html);
  }

  @Post(':token/documents')
  @Public()
  @ApiOperation({
    operationId: 'uploadPortalDocument',
    summary: "Upload one of the borrower's documents from the portal page: the file's bytes are the body",
    description:
      'The body is the file as it is (JPEG, PNG or PDF; not JSON, not multipart), at most the documents limit `DOCUMENT_MAX_BYTES` (20 MiB by default; larger answers `DOCUMENT_TOO_LARGE`). `X-Document-Kind` says which document it is (one the page offers for the applicant type); `X-File-Name` is the file name, percent-encoded. The bytes come as they are: a `Content-Encoding` other than `identity` answers `DOCUMENT_CONTENT_ENCODING_NOT_ALLOWED`, as the signed upload URL does. The first document moves the case to DocumentsReceived.',
  })
  @ApiParam(TOKEN)
  @ApiHeader({ name: 'X-Document-Kind', required: true, description: 'e.g. `Passport`, `Selfie`' })
  @ApiHeader({ name: 'X-File-Name', required: false, description: 'The file name, percent-encoded' })
  @ApiHeader({ name: 'Accept-Language', required: false, description: 'Language of the `error` text' })
  @AcceptsAnyBody('image/jpeg', 'image/png', 'application/pdf', 'application/octet-stream')
  @ApiBody({ description: "The file's bytes", schema: { type: 'string', format: 'binary' } })
  @ApiReasons(
    ...LINK_REASONS,
    PortalError.DOCUMENT_KIND_INVALID,
    PortalError.FILE_NAME_INVALID,
    PortalError.FILE_EMPTY,
    DocumentsError.TOO_LARGE,
    DocumentsError.CONTENT_ENCODING_NOT_ALLOWED,
    PortalError.FILE_TYPE_NOT_ALLOWED,
    PortalError.UPLOAD_ABORTED,
  )
  @ApiEnvelope(PortalDocumentResponse, { status: 201 })
  async upload(
    @Param('token') token: string,
    @Headers('x-document-kind') kind: string | undefined,
    @Headers('x-file-name') fileName: string | undefined,
    @Headers('content-type') contentType: string | undefined,
    @Req() req: Request,
  ) {
    const link = await this.portal.open(token);
    const input = this.portal.uploadInput(link, kind, fileName, contentType);
    // A JSON body was parsed (and consumed) by the app's JSON parser: it is not a document.
    if (req.body !== undefined || req.readableEnded) throw this.portal.notAFile();
    return this.portal.upload(link, {
      ...input,
      body: await readUploadBody(req, this.portal.maxFileBytes, () =>
        portalError(PortalError.UPLOAD_ABORTED),
      ),
    });
  }

  @Post(':token/finish')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'finishPortalUpload',
    summary:
      "Finish: the borrower's documents are complete; the link (and every other link of the case) is used up",
    description:
      'Needs at least one document on the case. Afterwards the page of the link answers 410 "already used".',
  })
  @ApiParam(TOKEN)
  @ApiHeader({ name: 'Accept-Language', required: false, description: 'Language of the `error` text' })
  @ApiReasons(...LINK_REASONS, PortalError.NOTHING_UPLOADED)
  @ApiEnvelope(PortalFinishedResponse)
  finish(@Param('token') token: string) {
    return this.portal.finish(token);
  }

  private texts(lang: Language): PortalTexts {
    return this.i18n.translate('portal.page', { lang }) as unknown as PortalTexts;
  }
}
