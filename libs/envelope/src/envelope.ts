/**
 * The one response shape of every API: `{ success, code, error, value }`.
 * `code` is the HTTP status as an integer (the verification spec fixes it as an integer); the stable,
 * language-independent error identifier travels in `value.reason` of an error envelope.
 */
export interface Envelope<T> {
  success: boolean;
  code: number;
  error: string | null;
  value: T;
}

export interface ListValue<T> {
  items: T[];
  total: number;
}

export interface FieldError {
  /** Dotted path of the offending field, e.g. `start.timeZone`. */
  field: string;
  /** The failed rule, e.g. `isString`; stable across languages. */
  rule: string;
  /** Localised text. */
  message: string;
}

export interface ErrorValue {
  reason: string;
  requestId: string;
  fields?: FieldError[];
  [detail: string]: unknown;
}

export function ok<T>(value: T, code = 200): Envelope<T> {
  return { success: true, code, error: null, value };
}

export function list<T>(items: T[], total: number, code = 200): Envelope<ListValue<T>> {
  return ok({ items, total }, code);
}

export function failure(code: number, error: string, value: ErrorValue): Envelope<ErrorValue> {
  return { success: false, code, error, value };
}

export function isEnvelope(v: unknown): v is Envelope<unknown> {
  return (
    typeof v === 'object' &&
    v !== null &&
    'success' in v &&
    'code' in v &&
    'error' in v &&
    'value' in v &&
    Object.keys(v).length === 4
  );
}
