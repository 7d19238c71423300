/** PostgreSQL's unique_violation: a concurrent writer took the same key between our check and insert. */
export function isUniqueViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === '23505';
}
