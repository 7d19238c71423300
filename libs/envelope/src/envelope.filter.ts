import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { I18nService } from 'nestjs-i18n';
import { resolveLanguage, type Language } from '@platform/i18n';
import { DomainError } from './domain-error';
import { CommonError, commonError, commonErrorForStatus } from './common-errors';
import { RequestValidationError } from './validation';
import { failure, type Envelope, type ErrorValue } from './envelope';
import { requestIdOf } from './request-id';
import { MAX_JSON_DEPTH } from './hostile-input';

type Classified =
  | { kind: 'domain'; error: DomainError }
  | { kind: 'validation'; error: RequestValidationError }
  | { kind: 'body'; error: DomainError }
  | { kind: 'http'; error: HttpException }
  | { kind: 'client'; status: number }
  | { kind: 'unexpected'; error: unknown };

function assertNever(x: never): never {
  throw new Error(`unhandled error kind: ${JSON.stringify(x)}`);
}

/** The request headers an error's localised text depends on (`resolveLanguage`), for `Vary`. */
export const LANGUAGE_HEADERS = ['Language-Code', 'Accept-Language'] as const;

/** Errors that express's body parser raises before any controller runs. */
function bodyParserError(e: unknown): DomainError | undefined {
  const type = (e as { type?: unknown })?.type;
  if (type === 'entity.parse.failed') return commonError(CommonError.MALFORMED_BODY);
  if (type === 'entity.too.large') return commonError(CommonError.PAYLOAD_TOO_LARGE);
  if (type === 'entity.too.deep') {
    return commonError(CommonError.BODY_TOO_DEEP, { max: MAX_JSON_DEPTH });
  }
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return commonError(CommonError.UNSUPPORTED_MEDIA_TYPE);
  }
  return undefined;
}

function classify(exception: unknown): Classified {
  if (exception instanceof DomainError) return { kind: 'domain', error: exception };
  if (exception instanceof RequestValidationError) return { kind: 'validation', error: exception };
  const body = bodyParserError(exception) ?? bodyParserError((exception as { cause?: unknown })?.cause);
  if (body) return { kind: 'body', error: body };
  if (exception instanceof HttpException) return { kind: 'http', error: exception };
  const status = clientStatus(exception) ?? clientStatus((exception as { original?: unknown })?.original);
  if (status) return { kind: 'client', status };
  return { kind: 'unexpected', error: exception };
}

/**
 * The status of an error the HTTP stack raised about the request itself (http-errors marks those
 * `expose`: an aborted upload, a path that does not decode, too many parameters). A client's
 * mistake, never a 500.
 */
function clientStatus(e: unknown): number | undefined {
  const { status, expose } = (e ?? {}) as { status?: unknown; expose?: unknown };
  return expose === true && typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
}

/**
 * The one global exception filter. Every failure leaves as an envelope with a localised text, a stable
 * `reason` and the request id; unexpected errors become a 500 without internals and are logged.
 */
@Catch()
export class EnvelopeExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('EnvelopeExceptionFilter');

  constructor(private readonly i18n: I18nService) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const req = host.switchToHttp().getRequest<Request>();
    const res = host.switchToHttp().getResponse<Response>();
    const { status, body, headers } = this.render(exception, req);
    if (res.headersSent) {
      res.end();
      return;
    }
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    // The `error` text is chosen by these headers: a cache (the route's own `Cache-Control: public`,
    // set before the handler ran, stays on its refusals too) must key on them. Added to any Vary.
    for (const name of LANGUAGE_HEADERS) res.vary(name);
    res.status(status).json(body);
  }

  render(
    exception: unknown,
    req: Request,
  ): { status: number; body: Envelope<ErrorValue>; headers: Record<string, string> } {
    const lang = resolveLanguage(req.headers);
    const requestId = requestIdOf(req);
    const c = classify(exception);
    switch (c.kind) {
      case 'domain':
      case 'body': {
        const e = c.error;
        const text = this.t(e.messageKey, lang, { ...e.args, requestId });
        return {
          status: e.status,
          body: failure(e.status, text, { reason: e.reason, requestId, ...e.details }),
          headers: e.headers,
        };
      }
      case 'validation': {
        const fields = c.error.fields.map((f) => ({
          field: f.field,
          rule: f.rule,
          message: this.t(`validation.${f.rule}`, lang, f.args, `validation.invalid`),
        }));
        const text = this.t('common.errors.VALIDATION_FAILED', lang, {});
        return {
          status: 400,
          body: failure(400, text, { reason: CommonError.VALIDATION_FAILED, requestId, fields }),
          headers: {},
        };
      }
      case 'http': {
        const status = c.error.getStatus();
        const code = commonErrorForStatus(status);
        if (status >= 500) this.logger.error(`request ${requestId}: ${c.error.message}`, c.error.stack);
        const e = commonError(code);
        const text = this.t(e.messageKey, lang, {
          method: req.method,
          path: req.path,
          requestId,
          service: '',
          failed: '',
        });
        return { status, body: failure(status, text, { reason: code, requestId }), headers: {} };
      }
      case 'client': {
        const code = commonErrorForStatus(c.status);
        const e = commonError(code);
        const text = this.t(e.messageKey, lang, { method: req.method, path: req.path, requestId });
        return { status: c.status, body: failure(c.status, text, { reason: code, requestId }), headers: {} };
      }
      case 'unexpected': {
        const err = c.error instanceof Error ? c.error : new Error(String(c.error));
        this.logger.error(`request ${requestId} ${req.method} ${req.path} failed: ${err.message}`, err.stack);
        const text = this.t('common.errors.INTERNAL', lang, { requestId });
        return {
          status: 500,
          body: failure(500, text, { reason: CommonError.INTERNAL, requestId }),
          headers: {},
        };
      }
      default:
        return assertNever(c);
    }
  }

  private t(key: string, lang: Language, args: Record<string, unknown>, fallbackKey?: string): string {
    const text = this.i18n.translate(key, { lang, args });
    if (typeof text === 'string' && text !== key) return text;
    if (fallbackKey) return this.t(fallbackKey, lang, args);
    return key;
  }
}
