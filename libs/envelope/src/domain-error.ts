/** What a module declares for each of its error codes: the HTTP status and the i18n message key. */
export interface ErrorSpec {
  status: number;
  messageKey: string;
}

/**
 * A coded domain error. Modules create them only through the factory returned by `defineErrors`, so
 * every code has a status and a message key (a missing one fails to compile).
 */
export class DomainError extends Error {
  constructor(
    readonly reason: string,
    readonly status: number,
    readonly messageKey: string,
    readonly args: Record<string, unknown> = {},
    readonly details: Record<string, unknown> = {},
  ) {
    super(reason);
    this.name = 'DomainError';
  }

  /** Response headers that belong to this error, e.g. `Retry-After` on a rate limit. */
  headers: Record<string, string> = {};

  withHeaders(headers: Record<string, string>): this {
    this.headers = { ...this.headers, ...headers };
    return this;
  }
}

export type ErrorFactory<C extends string> = ((
  code: C,
  args?: Record<string, unknown>,
  details?: Record<string, unknown>,
) => DomainError) & {
  /** The table itself, for the API reference (which reasons an operation answers, with what status). */
  readonly specs: Readonly<Record<C, ErrorSpec>>;
};

/**
 * Declares a module's error codes. `Record<C, ErrorSpec>` makes the table exhaustive at compile time.
 *
 *   export enum LoanError { NOT_FOUND = 'LOAN_NOT_FOUND' }
 *   export const loanError = defineErrors<LoanError>({ [LoanError.NOT_FOUND]: { status: 404, messageKey: 'lending.errors.LOAN_NOT_FOUND' } });
 *   throw loanError(LoanError.NOT_FOUND, { id });
 */
export function defineErrors<C extends string>(table: Record<C, ErrorSpec>): ErrorFactory<C> {
  const factory = (code: C, args?: Record<string, unknown>, details?: Record<string, unknown>) => {
    const spec = table[code];
    return new DomainError(code, spec.status, spec.messageKey, args ?? {}, details ?? {});
  };
  return Object.assign(factory, { specs: table });
}
