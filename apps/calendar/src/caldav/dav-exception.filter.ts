import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { Request, Response } from 'express';
import { I18nService } from 'nestjs-i18n';
import { EnvelopeExceptionFilter } from '@platform/envelope';
import { DAV_PRECONDITIONS, DavError } from './dav.errors';
import { NAMESPACE_DECLARATIONS, escapeXml, qname } from './dav-xml';

/** Our own elements in a `DAV:error` body: the coded reason, the localised text, the request id. */
export const PLATFORM_NS = 'https://calendar.platform/ns/';

export const DAV_ALLOW = 'OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, REPORT, MKCALENDAR';

/**
 * CalDAV's errors are WebDAV answers, not envelopes (RFC 4918 16): an XML `DAV:error` naming the
 * precondition that failed (CALDAV:valid-calendar-data, DAV:need-privileges, ...), plus the same coded
 * reason, localised text and request id the envelope carries. The status, text and headers come from
 * the one envelope filter, so both kinds of answer agree on every error. A 401 asks for Basic.
 */
@Catch()
export class DavExceptionFilter implements ExceptionFilter {
  private readonly envelope: EnvelopeExceptionFilter;

  constructor(i18n: I18nService) {
    this.envelope = new EnvelopeExceptionFilter(i18n);
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<Request>();
    const res = host.switchToHttp().getResponse<Response>();
    const { status, body, headers } = this.envelope.render(exception, req);
    if (res.headersSent) {
      res.end();
      return;
    }
    const value = (body.value ?? {}) as {
      reason?: string;
      requestId?: string;
      href?: string;
      allow?: string;
    };
    const reason = value.reason ?? '';
    const pre = DAV_PRECONDITIONS[reason as DavError];
    let condition = '';
    if (pre) {
      const q = qname(pre.ns, pre.name);
      if (pre.name === 'need-privileges') {
        condition = `${q.open}<d:resource><d:href>${escapeXml(req.originalUrl.split('?')[0])}</d:href><d:privilege><d:write-content/></d:privilege></d:resource>${q.close}`;
      } else if (value.href) condition = `${q.open}<d:href>${escapeXml(value.href)}</d:href>${q.close}`;
      else condition = q.empty;
    }
    const xml =
      `<?xml version="1.0" encoding="utf-8"?>\n<d:error ${NAMESPACE_DECLARATIONS} xmlns:p="${PLATFORM_NS}">` +
      `${condition}<p:reason>${escapeXml(reason)}</p:reason><p:message>${escapeXml(body.error ?? '')}</p:message>` +
      `${value.requestId ? `<p:request-id>${escapeXml(value.requestId)}</p:request-id>` : ''}</d:error>`;
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    if (status === 401) res.setHeader('WWW-Authenticate', 'Basic realm="Calendar", charset="UTF-8"');
    if (status === 405) res.setHeader('Allow', value.allow ?? DAV_ALLOW);
    res.vary('Accept-Language');
    res.setHeader('Cache-Control', 'no-store');
    afterBody(req, res, () => res.status(status).type('application/xml; charset=utf-8').send(xml));
  }
}

/** What is read and dropped of a refused request's body before answering; past it the connection closes. */
const DRAIN_BYTES = 2 * 1024 * 1024;
const DRAIN_WAIT_MS = 2_000;

/**
 * Answers once the request's body is read: a refusal before the body was read (a 401 from the guard, a
 * 413 midway) would otherwise meet the rest of an upload still arriving, and the connection, closed by
 * the server with unread data, resets under the sender (the gateway then reports the upstream as
 * failed). A body larger than DRAIN_BYTES is not waited for: the answer goes out and the connection closes.
 */
function afterBody(req: Request, res: Response, send: () => void): void {
  if (req.complete || req.readableEnded || !req.readable) return send();
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > DRAIN_BYTES) {
    res.setHeader('Connection', 'close');
    return send();
  }
  let seen = 0;
  let done = false;
  // A body that stops arriving (a Content-Length larger than what is sent) is not waited for long.
  const timer = setTimeout(() => finish(true), DRAIN_WAIT_MS);
  const finish = (close: boolean) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    req.off('data', onData);
    if (close) res.setHeader('Connection', 'close');
    send();
  };
  const onData = (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > DRAIN_BYTES) finish(true);
  };
  req.on('data', onData);
  req.once('end', () => finish(false));
  req.once('error', () => finish(true));
  req.resume();
}
