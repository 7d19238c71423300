import { HEADERS_METADATA } from '@nestjs/common/constants';
import type { Type } from '@nestjs/common';
import type { AuditedRoute } from '@platform/auth';

/** Names of response fields that carry a secret shown once. */
export const SECRET_FIELD =
  /^(secret|apiKey|clientSecret|client_secret|access_token|refresh_token|password|\w+Secret|\w+Token)$/;

// @nestjs/swagger's metadata keys (its DECORATORS constants): the documented response models of a
// route and the documented properties of a model, as the OpenAPI document is built from them.
const API_RESPONSE = 'swagger/apiResponse';
const API_EXTRA_MODELS = 'swagger/apiExtraModels';
const MODEL_PROPERTIES_ARRAY = 'swagger/apiModelPropertiesArray';
const MODEL_PROPERTIES = 'swagger/apiModelProperties';

type Fn = (...args: unknown[]) => unknown;
const isClass = (t: unknown): t is Type<unknown> =>
  typeof t === 'function' && /^class\b/.test(Function.prototype.toString.call(t));

/** The secret fields of a model and of the models it nests, as `Model.field`. */
export function secretFields(model: Type<unknown>, seen = new Set<unknown>()): string[] {
  if (seen.has(model)) return [];
  seen.add(model);
  const names = (
    (Reflect.getMetadata(MODEL_PROPERTIES_ARRAY, model.prototype) as string[] | undefined) ?? []
  ).map((n) => n.replace(/^:/, ''));
  return names.flatMap((name) => {
    const own = SECRET_FIELD.test(name) ? [`${model.name}.${name}`] : [];
    const meta = Reflect.getMetadata(MODEL_PROPERTIES, model.prototype, name) as
      { type?: unknown } | undefined;
    let t = meta?.type;
    if (typeof t === 'function' && !isClass(t)) {
      try {
        t = (t as Fn)();
      } catch {
        t = undefined;
      }
    }
    if (Array.isArray(t)) t = t[0];
    return [...own, ...(isClass(t) ? secretFields(t, seen) : [])];
  });
}

/** The models a route documents for its successful answers (envelope value or raw body). */
function answerModels(route: AuditedRoute): Type<unknown>[] {
  const handler = (route.target.prototype as Record<string, unknown>)[route.handler] as object;
  const extra = (Reflect.getMetadata(API_EXTRA_MODELS, handler) as Type<unknown>[] | undefined) ?? [];
  const responses =
    (Reflect.getMetadata(API_RESPONSE, handler) as Record<string, { type?: unknown }> | undefined) ?? {};
  const typed = Object.entries(responses)
    .filter(([status]) => Number(status) < 300)
    .map(([, r]) => r.type)
    .filter(isClass);
  return [...extra, ...typed];
}

/** Whether the route answers with `Cache-Control: no-store` (`ShowsSecret`, or `@Header` of its own). */
export function declaresNoStore(route: AuditedRoute): boolean {
  const handler = (route.target.prototype as Record<string, unknown>)[route.handler] as object;
  const headers =
    (Reflect.getMetadata(HEADERS_METADATA, handler) as { name: string; value: string }[] | undefined) ?? [];
  return headers.some((h) => h.name.toLowerCase() === 'cache-control' && /\bno-store\b/.test(h.value));
}

/** Routes whose answer shows a secret field but do not declare `Cache-Control: no-store`. */
export function secretRouteProblems(routes: readonly AuditedRoute[]): {
  secretRoutes: string[];
  problems: string[];
} {
  const secretRoutes: string[] = [];
  const problems: string[] = [];
  for (const route of routes) {
    const fields = [...new Set(answerModels(route).flatMap((m) => secretFields(m)))];
    if (!fields.length) continue;
    const at = `${route.method} ${route.path}`;
    secretRoutes.push(at);
    if (!declaresNoStore(route))
      problems.push(`${at} shows ${fields.join(', ')} without Cache-Control: no-store`);
  }
  return { secretRoutes, problems };
}
