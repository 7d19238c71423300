import { isUtf8 } from 'node:buffer';
import type { RawFieldError } from './validation';

/**
 * Checks every service applies to what arrives, before any DTO sees it. They reject what PostgreSQL or
 * the framework would otherwise turn into a 500 or silently alter (I-JSON, RFC 7493): NUL characters,
 * lone surrogates, bytes that are not UTF-8, nesting no API needs, and names of Object.prototype
 * members that class-transformer would treat as code rather than data.
 */

/** No request body of any API here is nested this deep; the limit keeps recursion in every later layer safe. */
export const MAX_JSON_DEPTH = 32;
/** Field errors reported for one request; the rest are dropped so a hostile body cannot inflate the answer. */
export const MAX_REPORTED_PROBLEMS = 20;
/** Longest field path echoed back. */
const MAX_PATH_CHARS = 200;

const OBJECT_PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

/** `__proto__`, `constructor`, `hasOwnProperty`, …: never a field of a DTO. */
export function isPrototypeMemberName(name: string): boolean {
  return OBJECT_PROTOTYPE_NAMES.has(name) || name === 'prototype';
}

/** Depth of `[`/`{` nesting outside strings, stopping as soon as it passes `max`. */
export function exceedsJsonDepth(buf: Uint8Array, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i];
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

export function isWellFormedUtf8(buf: Uint8Array): boolean {
  return isUtf8(buf);
}

function fieldPath(path: string): string {
  return path.length > MAX_PATH_CHARS ? `${path.slice(0, MAX_PATH_CHARS)}…` : path;
}

/** The string's own problem, or undefined. `replaced` marks U+FFFD as the trace of undecodable bytes. */
function stringRule(s: string, replaced: boolean): string | undefined {
  if (s.includes('\u0000')) return 'noNulCharacter';
  if (!s.isWellFormed()) return 'wellFormedUnicode';
  if (replaced && s.includes('\ufffd')) return 'wellFormedUtf8';
  return undefined;
}

/**
 * Walks a parsed JSON value and reports every string (value or key) PostgreSQL cannot hold or that
 * is not well-formed Unicode. With `replacedBytes`, the body was not UTF-8 and strings holding U+FFFD
 * are where the bad bytes were.
 */
export function inspectJsonStrings(value: unknown, opts: { replacedBytes?: boolean } = {}): RawFieldError[] {
  const out: RawFieldError[] = [];
  const replaced = opts.replacedBytes ?? false;
  const report = (path: string, rule: string) => {
    if (out.length < MAX_REPORTED_PROBLEMS) {
      const field = fieldPath(path);
      out.push({ field, rule, args: { property: field } });
    }
  };
  const walk = (v: unknown, path: string): void => {
    if (out.length >= MAX_REPORTED_PROBLEMS) return;
    if (typeof v === 'string') {
      const rule = stringRule(v, replaced);
      if (rule) report(path, rule);
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => walk(item, path ? `${path}.${i}` : String(i)));
    } else if (v !== null && typeof v === 'object') {
      for (const key of Object.keys(v)) {
        const child = path ? `${path}.${key}` : key;
        const rule = stringRule(key, replaced);
        if (rule) report(child, rule);
        else walk((v as Record<string, unknown>)[key], child);
      }
    }
  };
  walk(value, '');
  if (replaced && out.length === 0) report('', 'wellFormedUtf8');
  return out;
}

const PERCENT_RUN = /(?:%[0-9A-Fa-f]{2})+/g;

/** Decodes a URL component strictly: undefined when its percent-escapes are not UTF-8. */
function decodeStrict(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

/** Decodes for display only: invalid runs stay as they were sent. */
function decodeLenient(raw: string): string {
  return raw.replace(PERCENT_RUN, (run) => decodeStrict(run) ?? run);
}

/**
 * Checks the path and query of a URL before routing: every percent-escape decodes to UTF-8, nothing
 * decodes to NUL, and no query parameter is named after an Object.prototype member.
 */
export function inspectUrl(url: string): RawFieldError[] {
  // Nearly every URL: nothing to decode, no query, no NUL; every check below would pass.
  if (url.indexOf('%') === -1 && url.indexOf('?') === -1 && url.indexOf('\u0000') === -1) return [];
  const out: RawFieldError[] = [];
  const report = (field: string, rule: string) => {
    if (out.length < MAX_REPORTED_PROBLEMS) {
      const f = fieldPath(field);
      out.push({ field: f, rule, args: { property: f } });
    }
  };
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const decodedPath = decodeStrict(path);
  if (decodedPath === undefined) report('(path)', 'wellFormedUtf8');
  else if (decodedPath.includes('\u0000')) report('(path)', 'noNulCharacter');
  if (q === -1) return out;
  for (const pair of url.slice(q + 1).split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const rawName = (eq === -1 ? pair : pair.slice(0, eq)).replace(/\+/g, ' ');
    const rawValue = (eq === -1 ? '' : pair.slice(eq + 1)).replace(/\+/g, ' ');
    const name = decodeStrict(rawName);
    const shownName = name ?? decodeLenient(rawName);
    const value = decodeStrict(rawValue);
    if (name === undefined || value === undefined) report(shownName, 'wellFormedUtf8');
    else if (name.includes('\u0000') || value.includes('\u0000')) report(name, 'noNulCharacter');
    else if (isPrototypeMemberName(name.replace(/\[.*$/, ''))) report(name, 'whitelistValidation');
  }
  return out;
}
