import { createHash } from 'node:crypto';

/**
 * The feed's validator: a strong ETag over the exact bytes answered (SHA-256, base64url), so it
 * changes whenever anything in the feed does (an upsert, a membership, the window moving on a day)
 * and only then: the feed's bytes depend on the stored rows and the day alone (DTSTAMP is each
 * event's `updated_at`, not the clock).
 */
export function strongEtag(body: string): string {
  return `"${createHash('sha256').update(body, 'utf8').digest('base64url')}"`;
}

/**
 * If-None-Match against our ETag (RFC 9110 13.1.2): `*`, or any listed tag by weak comparison (a W/
 * prefix is ignored, as a GET compares weakly). Malformed members match nothing.
 */
export function noneMatch(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const text = Array.isArray(header) ? header.join(',') : header;
  if (text.length > 8192) return false;
  if (text.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return (text.match(/(?:W\/)?"[^"]*"/g) ?? []).some((tag) => tag.replace(/^W\//, '') === opaque);
}
