import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
// class-transformer keeps its @Type registry here and exports no public accessor for it.
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { MAX_REPORTED_PROBLEMS } from './hostile-input';

export interface RawFieldError {
  field: string;
  rule: string;
  args: Record<string, unknown>;
}

/** Raised by the validation pipe; the filter turns it into localised field errors. */
export class RequestValidationError extends Error {
  constructor(readonly fields: RawFieldError[]) {
    super('request validation failed');
    this.name = 'RequestValidationError';
  }
}

function constraintsOf(target: object | undefined, property: string, rule: string): unknown[] {
  if (!target) return [];
  const metas = getMetadataStorage().getTargetValidationMetadatas(
    target.constructor as new () => object,
    '',
    true,
    false,
  );
  const meta = metas.find(
    (m) => m.propertyName === property && (m.name === rule || m.constraintCls?.name === rule),
  );
  return meta?.constraints ?? [];
}

function show(v: unknown): string {
  if (Array.isArray(v)) return v.map(show).join(', ');
  if (v && typeof v === 'object') return Object.values(v).map(show).join(', ');
  return String(v);
}

export function flattenValidationErrors(errors: ValidationError[], prefix = ''): RawFieldError[] {
  return errors.flatMap((e) => {
    const field = `${prefix}${e.property}`;
    const own = Object.keys(e.constraints ?? {}).map((rule) => {
      const args: Record<string, unknown> = { property: field };
      constraintsOf(e.target, e.property, rule).forEach((c, i) => (args[`constraint${i + 1}`] = show(c)));
      return { field, rule, args };
    });
    return [...own, ...flattenValidationErrors(e.children ?? [], `${field}.`)];
  });
}

type Dto = new (...args: never[]) => object;

/** What the raw-input checks need of a DTO class, read from its decorators once per class. */
interface DtoShape {
  declared: Set<string>;
  freeFormMaps: Set<string>;
}

const shapes = new WeakMap<Dto, DtoShape>();

/** Decorators never change at run time, so each class is read once, not on every request. */
function shapeOf(cls: Dto): DtoShape {
  let shape = shapes.get(cls);
  if (!shape) {
    const metas = getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false);
    shape = {
      declared: new Set(metas.map((m) => m.propertyName)),
      freeFormMaps: new Set(metas.filter((m) => m.name === 'freeFormMap').map((m) => m.propertyName)),
    };
    shapes.set(cls, shape);
  }
  return shape;
}

/** The class a nested property is transformed into (`@Type(() => X)`), if any. */
function nestedType(cls: Dto, property: string): Dto | undefined {
  const meta = defaultMetadataStorage.findTypeMetadata(cls, property);
  return meta?.typeFunction() as Dto | undefined;
}

/**
 * Names Nest's ValidationPipe deletes from every object before validation (prototype-pollution
 * guard): in a free-form map they would vanish without a word, so they are refused instead.
 */
export const RESERVED_MAP_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

function reservedKeys(map: unknown, field: string, out: RawFieldError[]): void {
  if (map === null || typeof map !== 'object' || Array.isArray(map)) return;
  for (const k of Object.keys(map)) {
    if (RESERVED_MAP_KEYS.has(k))
      out.push({ field: `${field}.${k}`, rule: 'reservedKey', args: { property: `${field}.${k}` } });
  }
}

/**
 * Unknown fields, found on the raw input before class-transformer touches it. After it, the check
 * misses keys class-transformer treats as code (`__proto__` changes the instance's prototype;
 * `constructor`, `hasOwnProperty` are skipped), so those passed as if they were not there.
 */
export function unknownFields(
  plain: object,
  cls: Dto,
  prefix = '',
  out: RawFieldError[] = [],
): RawFieldError[] {
  const { declared, freeFormMaps } = shapeOf(cls);
  for (const key of Object.keys(plain)) {
    const field = `${prefix}${key}`;
    if (!declared.has(key)) {
      out.push({ field, rule: 'whitelistValidation', args: { property: field } });
      continue;
    }
    const v = (plain as Record<string, unknown>)[key];
    if (freeFormMaps.has(key)) {
      reservedKeys(v, field, out);
      continue;
    }
    const nested = nestedType(cls, key);
    if (!nested || v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) {
      v.forEach((item: unknown, i) => {
        if (item !== null && typeof item === 'object' && !Array.isArray(item))
          unknownFields(item, nested, `${field}.${i}.`, out);
      });
    } else unknownFields(v, nested, `${field}.`, out);
  }
  return out;
}

function isDto(metatype: unknown): metatype is Dto {
  return typeof metatype === 'function' && shapeOf(metatype as Dto).declared.size > 0;
}

/**
 * Global validation: unknown fields are rejected (a typo must not be silently ignored), values are
 * converted to the DTO types, and errors carry the rule name so the filter can localise them. A DTO
 * receives an object or nothing: a JSON array or scalar where an object is expected is a field error.
 */
export class PlatformValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (isDto(metadata.metatype) && value !== undefined && value !== null) {
      if (typeof value !== 'object' || Array.isArray(value)) {
        throw new RequestValidationError([
          { field: '(body)', rule: 'isObject', args: { property: '(body)' } },
        ]);
      }
      const unknown = unknownFields(value, metadata.metatype);
      if (unknown.length) {
        // Reported together with every other problem of the request, as the pipe would have.
        const others = await super.transform(value, metadata).then(
          () => [],
          (err: unknown) => {
            if (err instanceof RequestValidationError) return err.fields;
            throw err;
          },
        );
        const seen = new Set(unknown.map((f) => `${f.field}:${f.rule}`));
        const merged = [...unknown, ...others.filter((f) => !seen.has(`${f.field}:${f.rule}`))];
        throw new RequestValidationError(merged.slice(0, MAX_REPORTED_PROBLEMS));
      }
    }
    return super.transform(value, metadata);
  }
}

export function createValidationPipe(): ValidationPipe {
  return new PlatformValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: true, value: false },
    exceptionFactory: (errors) => new RequestValidationError(flattenValidationErrors(errors)),
  });
}
