import { MODULE_METADATA, PATH_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { RequestMethod, type DynamicModule, type Type } from '@nestjs/common';
import { ACCESS_RULE, AUTH_SCHEMES, IS_PUBLIC, type AccessRule } from './access.decorators';

export interface AuditedRoute {
  controller: string;
  handler: string;
  method: string;
  path: string;
  access: 'public' | 'authenticated' | 'none';
  /** The authentication schemes an authenticated route accepts. */
  schemes: string[];
  /** What an authenticated route demands beyond the credential; undefined when it declares nothing. */
  authorization?: AccessRule;
  /** The controller class, for tools that read the handler's parameter metadata. */
  target: Type<unknown>;
}

type ModuleRef = Type<unknown> | DynamicModule | Promise<DynamicModule> | { forwardRef: () => unknown };

function isDynamic(m: unknown): m is DynamicModule {
  return typeof m === 'object' && m !== null && 'module' in m;
}

/** Nest's path metadata: one path or several. */
const pathsOf = (meta: unknown): string[] =>
  (Array.isArray(meta) ? meta : [meta ?? '']).map((p) => String(p));

/**
 * Walks a module tree by its decorator metadata (no instantiation, no database) and lists every HTTP
 * route with the access rule it declares.
 */
export function auditRoutes(root: Type<unknown> | DynamicModule): AuditedRoute[] {
  const seen = new Set<unknown>();
  const controllers = new Set<Type<unknown>>();
  const visit = (ref: ModuleRef | undefined): void => {
    if (!ref || seen.has(ref) || ref instanceof Promise) return;
    seen.add(ref);
    if ('forwardRef' in (ref as object)) return visit((ref as { forwardRef: () => ModuleRef }).forwardRef());
    const cls = isDynamic(ref) ? ref.module : (ref as Type<unknown>);
    const imports: ModuleRef[] = [
      ...((Reflect.getMetadata(MODULE_METADATA.IMPORTS, cls) as ModuleRef[] | undefined) ?? []),
      ...((isDynamic(ref) ? (ref.imports ?? []) : []) as ModuleRef[]),
    ];
    const ctrls: Type<unknown>[] = [
      ...((Reflect.getMetadata(MODULE_METADATA.CONTROLLERS, cls) as Type<unknown>[] | undefined) ?? []),
      ...(isDynamic(ref) ? (ref.controllers ?? []) : []),
    ];
    ctrls.forEach((c) => controllers.add(c));
    imports.forEach(visit);
  };
  visit(root);

  const routes: AuditedRoute[] = [];
  for (const ctrl of controllers) {
    const bases = pathsOf(Reflect.getMetadata(PATH_METADATA, ctrl));
    let proto = ctrl.prototype as Record<string, unknown>;
    const names = new Set<string>();
    while (proto && proto !== Object.prototype) {
      Object.getOwnPropertyNames(proto).forEach((n) => names.add(n));
      proto = Object.getPrototypeOf(proto) as Record<string, unknown>;
    }
    for (const name of names) {
      if (name === 'constructor') continue;
      const fn = (ctrl.prototype as Record<string, unknown>)[name];
      if (typeof fn !== 'function') continue;
      const own = Reflect.getMetadata(PATH_METADATA, fn) as string | string[] | undefined;
      if (own === undefined) continue;
      const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, fn) as RequestMethod] ?? 'GET';
      const isPublic = Reflect.getMetadata(IS_PUBLIC, fn) ?? Reflect.getMetadata(IS_PUBLIC, ctrl);
      const schemes = (Reflect.getMetadata(AUTH_SCHEMES, fn) ?? Reflect.getMetadata(AUTH_SCHEMES, ctrl)) as
        string[] | undefined;
      const authorization = (Reflect.getMetadata(ACCESS_RULE, fn) ??
        Reflect.getMetadata(ACCESS_RULE, ctrl)) as AccessRule | undefined;
      // A controller or handler may be mounted at several paths (`@Get(['a', 'b'])`): one route each.
      for (const base of bases)
        for (const path of pathsOf(own))
          routes.push({
            controller: ctrl.name,
            handler: name,
            method,
            path: `/${[base, path]
              .map((p) => p.replace(/^\/|\/$/g, ''))
              .filter(Boolean)
              .join('/')}`,
            access: isPublic ? 'public' : schemes?.length ? 'authenticated' : 'none',
            schemes: schemes ?? [],
            authorization,
            target: ctrl,
          });
    }
  }
  return routes;
}

/**
 * Routes that break deny-by-default: neither public nor authenticated, or authenticated without scopes
 * or a named exemption. Each app's route test expects this list to be empty.
 */
export function accessProblems(routes: readonly AuditedRoute[]): string[] {
  return routes.flatMap((r) => {
    const at = `${r.method} ${r.path} (${r.controller}.${r.handler})`;
    if (r.access === 'none') return [`${at}: neither @Public() nor Authenticated()`];
    if (r.access === 'authenticated' && !r.authorization)
      return [`${at}: authenticated without RequireScopes/RequireAnyScope/NoScopeRequired`];
    return [];
  });
}
