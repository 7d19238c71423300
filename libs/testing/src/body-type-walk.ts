import type { AuditedRoute } from '@platform/auth';
import { ACCEPTED_BODY_TYPES } from '@platform/envelope';
import { rawRequest } from './http';

/** The media types a route declares besides JSON (`AcceptsBody`; `*` for `AcceptsAnyBody`). */
export function declaredBodyTypes(route: AuditedRoute): string[] {
  const handler = (route.target.prototype as Record<string, unknown>)[route.handler] as object;
  return (
    ((Reflect.getMetadata(ACCEPTED_BODY_TYPES, handler) ??
      Reflect.getMetadata(ACCEPTED_BODY_TYPES, route.target)) as string[] | undefined) ?? []
  );
}

const WRITES = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Sends a `text/plain` and a form body to every POST, PUT and PATCH route of an app (no credentials:
 * the media-type check runs first, in every app's guard) and lists the routes that did not answer
 * 415 UNSUPPORTED_MEDIA_TYPE though they do not declare that type. A route that declares it must not
 * answer that generic refusal. `paramValue` fills path parameters.
 */
export async function bodyTypeProblems(
  base: string,
  routes: readonly AuditedRoute[],
  paramValue = '4f1c2d3e-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
): Promise<{ checked: number; problems: string[] }> {
  const problems: string[] = [];
  let checked = 0;
  for (const route of routes.filter((r) => WRITES.has(r.method))) {
    const declared = declaredBodyTypes(route);
    const path = route.path.replace(/:[A-Za-z0-9_]+/g, paramValue);
    for (const [type, body] of [
      ['text/plain', 'organisation-wide'],
      ['application/x-www-form-urlencoded', 'a=1'],
    ]) {
      checked += 1;
      const res = await rawRequest(`${base}${path}`, {
        method: route.method,
        headers: { 'content-type': type },
        body,
      });
      const refused =
        res.status === 415 &&
        res.json?.value !== undefined &&
        (res.json.value as { reason?: string }).reason === 'UNSUPPORTED_MEDIA_TYPE';
      const takes = declared.includes('*') || declared.includes(type);
      if (takes === refused)
        problems.push(`${route.method} ${route.path} with ${type}: ${res.status} ${res.text.slice(0, 120)}`);
    }
  }
  return { checked, problems };
}
