import { All, Controller, Options, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentPrincipal, Public } from '@platform/auth';
import { AcceptsAnyBody, AcceptsAnyUntypedBody, RawResponse, requestIdOf } from '@platform/envelope';
import { DavAccess, type PersonPrincipal } from '../auth/calendar.access';
import {
  CaldavService,
  MAX_RESOURCE_BYTES,
  notAllowed,
  type DavAnswer,
  type DavCall,
} from './caldav.service';
import { DavError, davError } from './dav.errors';
import { DAV_ALLOW, DavExceptionFilter } from './dav-exception.filter';
import { DAV_ROOT, parseDavPath } from './dav-paths';
import { parseXml, XmlBodyError, type XmlElement } from './dav-xml';

/** Request bodies: a calendar object up to max-resource-size, an XML body as large (none is near it). */
const MAX_BODY_BYTES = MAX_RESOURCE_BYTES;
const DAV_HEADER = '1, 3, calendar-access, extended-mkcol';

/** The raw body, checked: at most MAX_BODY_BYTES, no content coding, valid UTF-8. */
async function readBody(req: Request): Promise<string> {
  const coding = req.headers['content-encoding'];
  if (coding && coding !== 'identity')
    throw davError(DavError.UNSUPPORTED_MEDIA_TYPE, { type: String(coding).slice(0, 40) });
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) throw davError(DavError.BODY_TOO_LARGE, { max: MAX_BODY_BYTES });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw davError(DavError.BODY_TOO_LARGE, { max: MAX_BODY_BYTES });
    chunks.push(chunk);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw davError(DavError.BODY_INVALID, { reason: 'not UTF-8' });
  }
}

function xmlBody(text: string): XmlElement | null {
  if (!text.trim()) return null;
  try {
    return parseXml(text);
  } catch (e) {
    if (e instanceof XmlBodyError) throw davError(DavError.BODY_INVALID, { reason: e.message.slice(0, 120) });
    throw e;
  }
}

function depthOf(req: Request): DavCall['depth'] {
  const v = req.headers.depth;
  if (v === undefined) return undefined;
  const d = String(v).trim().toLowerCase();
  if (d === '0' || d === '1' || d === 'infinity') return d;
  throw davError(DavError.BODY_INVALID, { reason: 'Depth' });
}

function send(res: Response, a: DavAnswer): void {
  res.setHeader('DAV', DAV_HEADER);
  for (const [k, v] of Object.entries(a.headers ?? {})) res.setHeader(k, v);
  res.status(a.status);
  if (a.body !== undefined) res.send(a.body);
  else res.end();
}

/**
 * CalDAV (docs/caldav.md), outside the JSON API and its reference: WebDAV methods and XML bodies, read
 * here (the JSON body parser leaves them alone). People sign in with an app password (Basic) or their
 * session (Bearer); OPTIONS and the RFC 6764 redirect answer anyone.
 */
@ApiExcludeController()
@UseFilters(DavExceptionFilter)
@Controller()
export class CaldavController {
  constructor(private readonly caldav: CaldavService) {}

  /**
   * RFC 6764 5: the well-known URI points at the CalDAV root, for every method a client may try, with
   * whatever body it sends (clients' first PROPFIND carries XML, unread here).
   */
  @All('.well-known/caldav')
  @Public()
  @AcceptsAnyBody('application/xml')
  @RawResponse()
  wellKnown(@Res() res: Response): void {
    res.setHeader('Cache-Control', 'no-store');
    res.redirect(301, DAV_ROOT);
  }

  @Options(['dav', 'dav/*path'])
  @Public()
  @RawResponse()
  options(@Res() res: Response): void {
    res.setHeader('Allow', DAV_ALLOW);
    send(res, { status: 200, headers: { 'Content-Length': '0' } });
  }

  @All(['dav', 'dav/*path'])
  @DavAccess()
  // XML bodies (any XML type clients send) and text/calendar objects, read and checked here.
  @AcceptsAnyUntypedBody('application/xml', 'text/calendar')
  @RawResponse()
  async handle(
    @CurrentPrincipal() p: PersonPrincipal,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const target = parseDavPath(req.path);
    const method = req.method.toUpperCase();
    const rawBody = method === 'GET' || method === 'HEAD' || method === 'DELETE' ? '' : await readBody(req);
    if (!target) throw davError(DavError.NOT_FOUND);
    const call: DavCall = {
      principal: p,
      target,
      depth: depthOf(req),
      headers: req.headers,
      body: method === 'PUT' ? null : xmlBody(rawBody),
      rawBody,
      requestId: requestIdOf(req),
    };
    send(res, await this.dispatch(method, call, req));
  }

  private dispatch(method: string, call: DavCall, req: Request): Promise<DavAnswer> | DavAnswer {
    switch (method) {
      case 'PROPFIND':
        return this.caldav.propfind(call);
      case 'REPORT':
        return this.caldav.report(call);
      case 'GET':
        return this.caldav.get(call, false);
      case 'HEAD':
        return this.caldav.get(call, true);
      case 'PUT':
        return this.caldav.put(call, req.headers['content-type']);
      case 'DELETE':
        return this.caldav.delete(call);
      case 'MKCALENDAR':
      case 'MKCOL':
        return this.caldav.mkcalendar(call);
      case 'PROPPATCH':
        return this.caldav.proppatch(call);
      default:
        throw notAllowed(call.target);
    }
  }
}
