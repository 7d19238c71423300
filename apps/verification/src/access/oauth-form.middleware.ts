import type { NextFunction, Request, Response } from 'express';

/** Larger than any client credentials request needs (an id, a 57-character secret, eleven scopes). */
export const OAUTH_FORM_MAX_BYTES = 8 * 1024;
const FORM = /^application\/x-www-form-urlencoded\s*(;.*)?$/i;

export type RequestWithOAuthForm = Request & { oauthForm?: string };

/**
 * The token endpoint's body parser, mounted on that route alone: RFC 6749 requires
 * `application/x-www-form-urlencoded`, which no other route accepts (the app's JSON parser ignores it).
 * Keeps the raw text, at most OAUTH_FORM_MAX_BYTES (beyond: the text is dropped and the route answers
 * invalid_request); parsing is the route's. A body in another type is left alone.
 */
export function oauthFormBody(req: RequestWithOAuthForm, _res: Response, next: NextFunction): void {
  if (!FORM.test(req.headers['content-type'] ?? '') || req.readableEnded) return next();
  const chunks: Buffer[] = [];
  let size = 0;
  let done = false;
  const finish = (text: string | undefined) => {
    if (done) return;
    done = true;
    req.oauthForm = text;
    next();
  };
  req.on('data', (c: Buffer) => {
    size += c.length;
    if (size <= OAUTH_FORM_MAX_BYTES) chunks.push(c);
  });
  req.on('end', () => {
    const buf = Buffer.concat(chunks);
    finish(size <= OAUTH_FORM_MAX_BYTES && isUtf8(buf) ? buf.toString('utf8') : undefined);
  });
  req.on('error', () => finish(undefined));
}

function isUtf8(buf: Buffer): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(buf);
    return true;
  } catch {
    return false;
  }
}
