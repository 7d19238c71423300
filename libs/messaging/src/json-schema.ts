import type { XStatic } from 'typebox/schema';

/**
 * Contracts are written as JSON Schema literals: the same object is validated by ajv at run time, is
 * published under docs/contracts/schemas/ for consumers in other languages, and gives the TypeScript type
 * through TypeBox's type-level inference (`import type` only, so no TypeBox code runs here; see decision
 * 0012 for why not TypeBox's builder).
 *
 * Only keywords that mean the same in JSON Schema 2020-12 and draft-07 are allowed, so AsyncAPI tooling
 * (whose default schema format is draft-07 based) and older validators read the files as we do.
 */
export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array' | 'null';

export type JsonPrimitive = string | number | boolean | null;

export interface FieldSchema {
  /** Always explicit: ajv's strict types and the code generators of other languages rely on it. */
  readonly type: JsonType | readonly JsonType[];
  /** Published in the schema files: every field of a registered contract has one (a test checks). */
  readonly description?: string;
  readonly title?: string;
  readonly format?: 'uuid' | 'date-time' | 'date' | 'email' | 'uri';
  readonly pattern?: string;
  readonly minLength?: number;
  /** Counted in Unicode code points, as the services' DTOs and PostgreSQL's char_length count. */
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly enum?: readonly JsonPrimitive[];
  readonly const?: JsonPrimitive;
  readonly properties?: { readonly [name: string]: FieldSchema };
  readonly required?: readonly string[];
  /** Required on every object: whether unknown keys are refused is a decision, not a default. */
  readonly additionalProperties?: boolean | FieldSchema;
  readonly items?: FieldSchema;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly examples?: readonly unknown[];
}

/** A payload as a map of its fields: every field is present (a field without a value is nullable). */
export interface Fields {
  readonly [field: string]: FieldSchema;
}

/** The TypeScript type a field map describes. */
export type PayloadOf<F extends Fields> = { -readonly [K in keyof F]: XStatic<F[K]> };

/** A JSON Schema document as published: an object schema with its identity and documentation. */
export interface JsonSchemaDocument {
  readonly $schema: typeof JSON_SCHEMA_DIALECT;
  readonly $id: string;
  readonly title: string;
  readonly description: string;
  readonly type: 'object';
  readonly properties: { readonly [name: string]: FieldSchema };
  readonly required: readonly string[];
  readonly additionalProperties: boolean | FieldSchema;
  /**
   * Only on a topic that carries several event types: one closed object schema per type, each fixing
   * `eventType` with a `const`, so exactly one applies (`oneOf` means the same in draft-07).
   */
  readonly oneOf?: readonly ObjectSchema[];
  readonly examples?: readonly unknown[];
}

/** One branch of a union document: an event type's payload schema, inlined so the file stands alone. */
export interface ObjectSchema {
  readonly title: string;
  readonly description: string;
  readonly type: 'object';
  readonly properties: { readonly [name: string]: FieldSchema };
  readonly required: readonly string[];
  readonly additionalProperties: boolean | FieldSchema;
}

export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/**
 * Base of the schema files' `$id`s. The host is a placeholder (RFC 2606): the ids name the schemas, they
 * do not locate them; the files live in docs/contracts/schemas/ under the same names.
 */
export const SCHEMA_BASE_URI = 'https://platform.example/contracts/schemas/';

/**
 * What we emit and accept as an instant: RFC 3339 with an upper-case `T`, seconds, optional fraction and
 * a `Z` or `±hh:mm` offset (what `Date.prototype.toISOString` writes). ajv-formats' `date-time` also
 * checks the calendar (no 30 February); this pattern narrows what it tolerates (lower case, a space,
 * `+0300`, a leap second), as the platform's own validator did before.
 */
export const INSTANT_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:[0-5]\\d(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$';

/** ajv-formats' `uuid` also admits a `urn:uuid:` prefix; ids on the wire are bare. */
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** A UUID string field. */
export function uuid<const D extends string>(description: D) {
  return { type: 'string', format: 'uuid', pattern: UUID_PATTERN, description } as const;
}

/** An instant: ISO 8601 / RFC 3339 date-time with an offset. */
export function instant<const D extends string>(description: D) {
  return { type: 'string', format: 'date-time', pattern: INSTANT_PATTERN, description } as const;
}

/** An instant that may be null. */
export function nullableInstant<const D extends string>(description: D) {
  return { type: ['string', 'null'], format: 'date-time', pattern: INSTANT_PATTERN, description } as const;
}

/** `calendar.event.changed.v1` -> `CalendarEventChangedV1`: the class name code generators will use. */
export function typeName(topic: string): string {
  return topic
    .split(/[.-]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}
