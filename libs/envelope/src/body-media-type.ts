import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiConsumes } from '@nestjs/swagger';
import type { IncomingHttpHeaders } from 'node:http';
import { CommonError, commonError } from './common-errors';
import type { DomainError } from './domain-error';

/** What the app-wide JSON parser reads (`jsonBodyParser`): every route takes these. */
export const JSON_MEDIA_TYPES = ['application/json', 'application/*+json'] as const;

/** Metadata key: the media types a route takes besides JSON; `*` means any (the route reads it itself). */
export const ACCEPTED_BODY_TYPES = 'platform:acceptedBodyTypes';

/**
 * A route whose body may also be one of `types` (e.g. `application/x-www-form-urlencoded`), documented
 * as its OpenAPI `consumes`. Every other route takes JSON only: a body of another type is refused with
 * 415 UNSUPPORTED_MEDIA_TYPE before the route runs (`bodyMediaTypeRefusal`, in every app's guard), where
 * it used to reach the route as an absent body (a `text/plain` RunAccruals ran for the whole
 * organization).
 */
export function AcceptsBody(...types: string[]) {
  return applyDecorators(SetMetadata(ACCEPTED_BODY_TYPES, types), ApiConsumes(...types));
}

/**
 * A route that reads the raw body itself, whatever its type (a file upload that recognises the file by
 * its bytes, and refuses with its own coded error); `documented` are the types its reference lists.
 */
export function AcceptsAnyBody(...documented: string[]) {
  return applyDecorators(SetMetadata(ACCEPTED_BODY_TYPES, ['*']), ApiConsumes(...documented));
}

/** In a route's accepted types: a body without Content-Type is taken too (`AcceptsAnyBody({ untyped: true })`). */
export const UNTYPED_BODY = '(untyped)';

/**
 * As `AcceptsAnyBody`, and a body that names no type is read as well (CalDAV: a PUT without
 * Content-Type is an iCalendar object, RFC 4791 leaves the header to the client).
 */
export function AcceptsAnyUntypedBody(...documented: string[]) {
  return applyDecorators(SetMetadata(ACCEPTED_BODY_TYPES, ['*', UNTYPED_BODY]), ApiConsumes(...documented));
}

/** Whether the request carries a body: chunked, or a Content-Length above 0 (a bodiless POST has none). */
export function carriesBody(headers: IncomingHttpHeaders): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = Number(headers['content-length']);
  return Number.isFinite(length) && length > 0;
}

/** The media type without parameters, lower-cased: `Text/Plain; charset=utf-8` is `text/plain`. */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

const matches = (type: string, pattern: string) => {
  if (pattern === '*' || pattern === type) return true;
  const [pType, pSub] = pattern.split('/');
  const [type0, sub] = type.split('/');
  if (pType !== type0 || sub === undefined) return false;
  if (pSub === '*') return true;
  // `application/*+json`: any subtype with that suffix.
  return pSub.startsWith('*+') && sub.endsWith(pSub.slice(1));
};

/** Whether the app's JSON parser reads this media type. */
export const isJsonMediaType = (type: string) => JSON_MEDIA_TYPES.some((p) => matches(type, p));

/**
 * The 415 for a request whose body is neither JSON nor a type its route declares (`AcceptsBody`),
 * undefined when it may go on. A request without a body always goes on, whatever its Content-Type.
 */
export function bodyMediaTypeRefusal(
  headers: IncomingHttpHeaders,
  accepted: readonly string[] | undefined,
): DomainError | undefined {
  if (!carriesBody(headers)) return undefined;
  const type = mediaTypeOf(headers['content-type']);
  if (!type && (accepted ?? []).includes(UNTYPED_BODY)) return undefined;
  if (type && (isJsonMediaType(type) || (accepted ?? []).some((p) => matches(type, p)))) return undefined;
  return commonError(
    CommonError.UNSUPPORTED_MEDIA_TYPE,
    {},
    { contentType: type || null, accepted: ['application/json', ...(accepted ?? [])] },
  );
}
