/**
 * A deliberately small schema language for event payloads: contracts must import nothing, so the
 * validator lives here. Enough for flat-ish JSON events: strings, integers, numbers, booleans, ISO
 * date-times, enums, nullable/optional fields, nested objects and arrays.
 */
export type FieldSchema =
  | { type: 'string'; optional?: boolean; nullable?: boolean; maxLength?: number }
  | { type: 'uuid'; optional?: boolean; nullable?: boolean }
  | { type: 'datetime'; optional?: boolean; nullable?: boolean }
  | { type: 'integer'; optional?: boolean; nullable?: boolean; min?: number }
  | { type: 'number'; optional?: boolean; nullable?: boolean }
  | { type: 'boolean'; optional?: boolean; nullable?: boolean }
  | { type: 'enum'; values: readonly string[]; optional?: boolean; nullable?: boolean }
  | { type: 'object'; fields: ObjectSchema; optional?: boolean; nullable?: boolean }
  | { type: 'array'; items: FieldSchema; optional?: boolean; nullable?: boolean }
  | { type: 'json'; optional?: boolean; nullable?: boolean };

export type ObjectSchema = Record<string, FieldSchema>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Length in Unicode code points: what the services' DTOs and PostgreSQL's char_length count, so a
 * value the API accepted is never refused here.
 */
function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

function check(path: string, value: unknown, s: FieldSchema, out: string[]): void {
  if (value === undefined) {
    if (!s.optional) out.push(`${path} is required`);
    return;
  }
  if (value === null) {
    if (!s.nullable) out.push(`${path} must not be null`);
    return;
  }
  switch (s.type) {
    case 'string':
      if (typeof value !== 'string') out.push(`${path} must be a string`);
      else if (s.maxLength !== undefined && codePoints(value) > s.maxLength)
        out.push(`${path} is longer than ${s.maxLength} characters`);
      return;
    case 'uuid':
      if (typeof value !== 'string' || !UUID.test(value)) out.push(`${path} must be a UUID`);
      return;
    case 'datetime':
      if (typeof value !== 'string' || !ISO.test(value) || Number.isNaN(Date.parse(value))) {
        out.push(`${path} must be an ISO 8601 date-time with offset`);
      }
      return;
    case 'integer':
      if (!Number.isInteger(value)) out.push(`${path} must be an integer`);
      else if (s.min !== undefined && (value as number) < s.min) out.push(`${path} must be >= ${s.min}`);
      return;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) out.push(`${path} must be a number`);
      return;
    case 'boolean':
      if (typeof value !== 'boolean') out.push(`${path} must be a boolean`);
      return;
    case 'enum':
      if (typeof value !== 'string' || !s.values.includes(value))
        out.push(`${path} must be one of ${s.values.join('|')}`);
      return;
    case 'object':
      if (typeof value !== 'object' || Array.isArray(value)) out.push(`${path} must be an object`);
      else validateObject(value as Record<string, unknown>, s.fields, `${path}.`, out);
      return;
    case 'array':
      if (!Array.isArray(value)) out.push(`${path} must be an array`);
      else value.forEach((v, i) => check(`${path}[${i}]`, v, s.items, out));
      return;
    case 'json':
      return;
  }
}

export function validateObject(
  value: Record<string, unknown>,
  schema: ObjectSchema,
  prefix = '',
  out: string[] = [],
): string[] {
  for (const [k, s] of Object.entries(schema)) check(`${prefix}${k}`, value[k], s, out);
  for (const k of Object.keys(value))
    if (!(k in schema)) out.push(`${prefix}${k} is not part of the contract`);
  return out;
}
