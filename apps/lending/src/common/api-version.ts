import type { IncomingMessage, ServerResponse } from 'node:http';
import { LendingError, lendingError } from './lending.errors';

/**
 * Lending API versions (decision 0026). A request selects one with the `Api-Version` header (`1`, or
 * `v1`); without it, the current version answers. Every answer says which version produced it in its
 * own `Api-Version` header. An unknown version is refused (400) before any route runs, never served
 * by a guess (that refusal says `Api-Version` of the current one). An incompatible change ships as the next number, next to the old one, which keeps
 * answering under its support agreement; `SUPPORTED` lists the versions still served.
 */
export const API_VERSIONS = ['1'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];
export const CURRENT_API_VERSION: ApiVersion = '1';
const HEADER = 'api-version';

export function requestedVersion(raw: string | string[] | undefined): ApiVersion | 'unsupported' {
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (!value) return CURRENT_API_VERSION;
  const bare = /^v?(\d{1,3})$/i.exec(value)?.[1];
  return (API_VERSIONS as readonly string[]).includes(bare ?? '') ? (bare as ApiVersion) : 'unsupported';
}

/** Express-style middleware on every lending request, ahead of the routes. */
export function apiVersionMiddleware(
  req: IncomingMessage,
  res: ServerResponse,
  next: (err?: unknown) => void,
) {
  const version = requestedVersion(req.headers[HEADER]);
  // The refusal of an unknown version is the current version's answer, and says so.
  res.setHeader('Api-Version', version === 'unsupported' ? CURRENT_API_VERSION : version);
  if (version === 'unsupported') {
    const given = String(req.headers[HEADER])
      .replace(/[^\x20-\x7e]/g, '?')
      .slice(0, 20);
    return next(
      lendingError(
        LendingError.API_VERSION_UNSUPPORTED,
        { version: given, supported: API_VERSIONS.join(', ') },
        { supportedVersions: [...API_VERSIONS] },
      ),
    );
  }
  next();
}
