import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { FieldSchema, JsonSchemaDocument } from './json-schema';

/**
 * One ajv for every contract. Strict: an unknown keyword, an unknown format or a keyword that does not
 * apply to the declared type is an error when the contract is defined, not a silently ignored rule.
 * `addUsedSchema: false` keeps compiled documents out of the instance, so defining a contract twice
 * (tests do) is not a duplicate-`$id` error. `unicode` (the default) counts `maxLength` in code points.
 */
const ajv = new Ajv2020({
  allErrors: true,
  strict: true,
  allowUnionTypes: true,
  verbose: true,
  addUsedSchema: false,
});
addFormats(ajv);

export type PayloadValidator = ValidateFunction;

/** Compiles a payload schema once; throws when the schema itself is wrong. */
export function compilePayloadSchema(schema: JsonSchemaDocument): PayloadValidator {
  return ajv.compile(schema);
}

/** Problems of a value, in the platform's words ("title is longer than 500 characters"). */
export function problemsOf(validate: PayloadValidator, value: unknown): string[] {
  if (validate(value)) return [];
  const problems = (validate.errors ?? []).map(describe);
  // Several keywords can refuse one value (format and pattern, type and enum): say it once.
  return [...new Set(problems)];
}

const FORMAT_PROBLEM: Record<string, string> = {
  'date-time': 'must be an ISO 8601 date-time with offset',
  uuid: 'must be a UUID',
  date: 'must be a date (YYYY-MM-DD)',
  email: 'must be an e-mail address',
  uri: 'must be an absolute URI',
};

const ARTICLE: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
};

/** JSON pointer `/checks/db/0` -> `checks.db[0]`, the path style of the messages. */
function pathOf(pointer: string, child?: string): string {
  const segments = pointer === '' ? [] : pointer.slice(1).split('/');
  if (child !== undefined) segments.push(child);
  let path = '';
  for (const raw of segments) {
    const s = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    path += /^\d+$/.test(s) ? `[${s}]` : path === '' ? s : `.${s}`;
  }
  return path === '' ? 'payload' : path;
}

function describe(e: ErrorObject): string {
  const schema = (e.parentSchema ?? {}) as Partial<FieldSchema>;
  const at = pathOf(e.instancePath);
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return `${pathOf(e.instancePath, String(params.missingProperty))} is required`;
    case 'additionalProperties':
      return `${pathOf(e.instancePath, String(params.additionalProperty))} is not part of the contract`;
    case 'type': {
      if (e.data === null) return `${at} must not be null`;
      // A value of the wrong type for a formatted or enumerated field gets the field's own message.
      if (schema.format && FORMAT_PROBLEM[schema.format]) return `${at} ${FORMAT_PROBLEM[schema.format]}`;
      if (schema.enum) return enumProblem(at, schema.enum);
      const types = String(params.type)
        .split(',')
        .filter((t) => t !== 'null')
        .map((t) => ARTICLE[t] ?? t);
      return `${at} must be ${types.join(' or ')}`;
    }
    case 'format':
      return `${at} ${FORMAT_PROBLEM[String(params.format)] ?? `must be a ${String(params.format)}`}`;
    case 'pattern':
      if (schema.format && FORMAT_PROBLEM[schema.format]) return `${at} ${FORMAT_PROBLEM[schema.format]}`;
      return `${at} must match ${String(params.pattern)}`;
    case 'maxLength':
      return `${at} is longer than ${String(params.limit)} characters`;
    case 'minLength':
      return `${at} is shorter than ${String(params.limit)} characters`;
    case 'minimum':
      return `${at} must be >= ${String(params.limit)}`;
    case 'maximum':
      return `${at} must be <= ${String(params.limit)}`;
    case 'enum':
      return enumProblem(at, (params.allowedValues as readonly unknown[]) ?? []);
    case 'const':
      return `${at} must be ${JSON.stringify(params.allowedValue)}`;
    case 'maxItems':
      return `${at} has more than ${String(params.limit)} items`;
    case 'minItems':
      return `${at} has fewer than ${String(params.limit)} items`;
    default:
      return `${at} ${e.message ?? `fails ${e.keyword}`}`;
  }
}

function enumProblem(at: string, values: readonly unknown[]): string {
  return `${at} must be one of ${values.filter((v) => v !== null).join('|')}`;
}
