import { json } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  MAX_JSON_DEPTH,
  exceedsJsonDepth,
  inspectJsonStrings,
  inspectUrl,
  isWellFormedUtf8,
} from './hostile-input';
import { RequestValidationError, type RawFieldError } from './validation';
import { JSON_MEDIA_TYPES } from './body-media-type';

type Next = (err?: unknown) => void;

/** Wraps a body-parser failure so the router passes it to the filter untouched. */
export class BodyParserError extends Error {
  readonly type: string;
  constructor(readonly original: unknown) {
    super((original as Error)?.message ?? 'body parse error');
    this.type = String((original as { type?: unknown })?.type ?? 'entity.parse.failed');
  }
}

/** Raised before parsing: the body nests deeper than any API here accepts. */
export class BodyTooDeepError extends Error {
  readonly type = 'entity.too.deep';
  constructor(readonly maxDepth: number) {
    super(`JSON nested deeper than ${maxDepth}`);
  }
}

class InvalidUtf8Error extends Error {
  readonly type = 'entity.invalid.utf8';
  constructor(readonly fields: RawFieldError[]) {
    super('body is not UTF-8');
  }
}

/**
 * Runs on the raw bytes before they are decoded: a nesting bomb is refused before JSON.parse builds
 * it, and bytes that are not UTF-8 are refused instead of becoming U+FFFD. The fields named are the
 * strings where the undecodable bytes were.
 */
function verifyRaw(_req: IncomingMessage, _res: ServerResponse, buf: Buffer): void {
  if (exceedsJsonDepth(buf, MAX_JSON_DEPTH)) throw new BodyTooDeepError(MAX_JSON_DEPTH);
  if (isWellFormedUtf8(buf)) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(buf.toString('utf8'));
  } catch {
    parsed = undefined;
  }
  throw new InvalidUtf8Error(inspectJsonStrings(parsed, { replacedBytes: true }));
}

/**
 * The JSON body parser every app uses instead of Nest's: errors keep body-parser's `type` for the
 * filter (Nest turns them into a bare BadRequestException), and the parsed body is checked for NUL
 * characters and lone surrogates, which PostgreSQL rejects or JSON silently keeps.
 */
export function jsonBodyParser(limit: string) {
  // `application/*+json` too: what the parser reads is what every route accepts (body-media-type.ts).
  const parse = json({ limit, verify: verifyRaw, type: [...JSON_MEDIA_TYPES] });
  return (req: IncomingMessage & { body?: unknown }, res: ServerResponse, next: Next): void =>
    parse(req as never, res as never, (err?: unknown) => {
      if (err instanceof InvalidUtf8Error) return next(new RequestValidationError(err.fields));
      if (err) return next(new BodyParserError(err));
      const problems = req.body === undefined ? [] : inspectJsonStrings(req.body);
      next(problems.length ? new RequestValidationError(problems) : undefined);
    });
}

/** Refuses a URL whose path or query does not decode to clean UTF-8, before any route parses it. */
export function urlGuardMiddleware(req: IncomingMessage, _res: ServerResponse, next: Next): void {
  const problems = req.url ? inspectUrl(req.url) : [];
  next(problems.length ? new RequestValidationError(problems) : undefined);
}
