import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import type { DynamicModule, Type } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
// class-transformer keeps its @Type registry here and exports no public accessor for it.
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { auditRoutes } from '@platform/auth';
import { RAW_RESPONSE } from '@platform/envelope';

/**
 * What a route declares about its inputs, read from the same metadata the validation pipe enforces
 * (class-validator rules, class-transformer @Type). Committed per app as docs/routes/<app>.json and
 * checked for drift by the app's routes test; the fuzz harness derives its requests from it, so a new
 * route is fuzzed without anyone writing a case for it.
 */
export type FieldKind =
  | 'string'
  | 'int'
  | 'number'
  | 'boolean'
  | 'instant'
  | 'date'
  | 'timezone'
  | 'enum'
  | 'array'
  | 'object'
  | 'map'
  | 'unknown';

export interface FieldDescriptor {
  name: string;
  kind: FieldKind;
  required: boolean;
  maxChars?: number;
  min?: number;
  max?: number;
  values?: string[];
  /** For arrays: what each item is. */
  items?: Omit<FieldDescriptor, 'name' | 'required'>;
  /** For nested objects (and arrays of them): their fields. */
  fields?: FieldDescriptor[];
}

export interface RouteManifestEntry {
  method: string;
  path: string;
  access: 'public' | 'authenticated' | 'none';
  schemes: string[];
  /** The handler writes its own body (metrics, files): not an envelope. */
  raw: boolean;
  body?: FieldDescriptor[];
  query?: FieldDescriptor[];
}

type Meta = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>[number];

const SCALAR_RULES: Record<string, FieldKind> = {
  isInt: 'int',
  isNumber: 'number',
  isBoolean: 'boolean',
  isInstant: 'instant',
  isCalendarDate: 'date',
  isTimeZone: 'timezone',
  isIn: 'enum',
  isString: 'string',
  matches: 'string',
  freeFormMap: 'map',
};

function scalar(metas: Meta[]): Omit<FieldDescriptor, 'name' | 'required'> {
  const names = metas.map((m) => m.name ?? '');
  const kind = (Object.keys(SCALAR_RULES).find((r) => names.includes(r)) as string | undefined) ?? '';
  const out: Omit<FieldDescriptor, 'name' | 'required'> = { kind: SCALAR_RULES[kind] ?? 'unknown' };
  for (const m of metas) {
    const c = (m.constraints ?? []) as unknown[];
    if (m.name === 'maxChars') out.maxChars = c[0] as number;
    if (m.name === 'min') out.min = c[0] as number;
    if (m.name === 'max') out.max = c[0] as number;
    if (m.name === 'isIn') out.values = (c[0] as unknown[]).map(String);
  }
  return out;
}

export function describeFields(cls: Type<unknown>, depth = 0): FieldDescriptor[] {
  const metas = getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false);
  const byProperty = new Map<string, Meta[]>();
  for (const m of metas) byProperty.set(m.propertyName, [...(byProperty.get(m.propertyName) ?? []), m]);
  return [...byProperty].map(([name, list]) => {
    // Optional, or checked only under a condition (ValidateIf): either way a caller may leave it out.
    const required = !list.some((m) => m.name === 'isOptional' || m.type === 'conditionalValidation');
    const own = list.filter((m) => !m.each && m.type !== 'nestedValidation');
    const each = list.filter((m) => m.each);
    const nested = list.some((m) => m.type === 'nestedValidation');
    const typeMeta = defaultMetadataStorage.findTypeMetadata(cls, name);
    const nestedFields =
      nested && typeMeta && depth < 4
        ? describeFields(typeMeta.typeFunction() as Type<unknown>, depth + 1)
        : undefined;
    const isArray = list.some((m) => m.name === 'isArray');
    if (isArray) {
      const items = nestedFields ? { kind: 'object' as const, fields: nestedFields } : scalar(each);
      const sizeMax = list.find((m) => m.name === 'arrayMaxSize')?.constraints?.[0] as number | undefined;
      return { name, required, kind: 'array' as const, items, ...(sizeMax ? { max: sizeMax } : {}) };
    }
    if (nestedFields) return { name, required, kind: 'object' as const, fields: nestedFields };
    return { name, required, ...scalar(own) };
  });
}

function paramClass(
  target: Type<unknown>,
  handler: string,
  type: RouteParamtypes,
): Type<unknown> | undefined {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, target, handler) ?? {}) as Record<
    string,
    { index: number; data?: unknown }
  >;
  const types = (Reflect.getMetadata('design:paramtypes', target.prototype, handler) ??
    []) as Type<unknown>[];
  const entry = Object.entries(args).find(([key, v]) => key.startsWith(`${type}:`) && v.data === undefined);
  const cls = entry ? types[entry[1].index] : undefined;
  return cls &&
    cls !== Object &&
    getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false).length
    ? cls
    : undefined;
}

/** Every route of an app module with its access rule and declared inputs, in a stable order. */
export function describeRoutes(root: Type<unknown> | DynamicModule): RouteManifestEntry[] {
  return auditRoutes(root)
    .map((r) => {
      const handler = (r.target.prototype as Record<string, unknown>)[r.handler] as object;
      const body = paramClass(r.target, r.handler, RouteParamtypes.BODY);
      const query = paramClass(r.target, r.handler, RouteParamtypes.QUERY);
      return {
        method: r.method,
        path: r.path,
        access: r.access,
        schemes: r.schemes,
        raw: Boolean(
          Reflect.getMetadata(RAW_RESPONSE, handler) ?? Reflect.getMetadata(RAW_RESPONSE, r.target),
        ),
        ...(body ? { body: describeFields(body) } : {}),
        ...(query ? { query: describeFields(query) } : {}),
      };
    })
    .sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
}
