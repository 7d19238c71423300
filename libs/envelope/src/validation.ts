import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';

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

/**
 * Global validation: unknown fields are rejected (a typo must not be silently ignored), values are
 * converted to the DTO types, and errors carry the rule name so the filter can localise them.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    validationError: { target: true, value: false },
    exceptionFactory: (errors) => new RequestValidationError(flattenValidationErrors(errors)),
  });
}
