/** A connection inside a transaction: a TypeORM EntityManager in `transaction()`, or a pg client in BEGIN. */
export interface CountLimitRunner {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/**
 * The things the platform bounds per owner. One name per kind: the lock key is `<kind>:<owner>`, so two
 * kinds of one owner never wait on each other. Two services sharing a database may take the same lock
 * for the same kind and owner; that only makes their creates take turns, each count stays its own.
 */
export type CountedKind =
  'api_keys' | 'webhook_subscriptions' | 'status_subscribers' | 'app_passwords' | 'ics_feeds';

export interface CountLimit {
  kind: CountedKind;
  /** The organization, business or other owner the bound is per. */
  ownerId: string;
  max: number;
  /** How many the owner has now; runs after the lock, in the same transaction. */
  count: () => Promise<number>;
  /** The coded error for an owner at its bound (e.g. `WEBHOOK_SUBSCRIPTION_LIMIT_REACHED`). */
  full: (max: number) => Error;
}

/**
 * A count bound that holds under concurrency, for every "at most N per owner" of the platform: a
 * transaction-scoped advisory lock on (kind, owner), then the count, then `create`, all on `runner`,
 * which must be inside a transaction. Counting and inserting in one transaction is not enough on its
 * own: under READ COMMITTED two transactions both count N-1 and both insert. The lock makes the
 * creates of one owner's kind take turns until each commits (the next count, a new statement, sees the
 * committed row), while other owners and other kinds go on in parallel. The lock needs no row to
 * exist and no table of counters, so the same call serves a table in the shared database or in a
 * tenant's own one; outside a transaction it would be released at once, hence the rule above (the
 * concurrency tests of each bound would fail).
 */
export async function withinCountLimit<T>(
  runner: CountLimitRunner,
  limit: CountLimit,
  create: () => Promise<T>,
): Promise<T> {
  await lockCounted(runner, limit.kind, limit.ownerId);
  if ((await limit.count()) >= limit.max) throw limit.full(limit.max);
  return create();
}

/**
 * `lockCounted`'s lock as a statement whose `$1` is the owner and `$2` the kind (the same key,
 * `<kind>:<owner>`), for a scoped repository's tenant door.
 */
export const COUNT_LOCK = `SELECT pg_advisory_xact_lock(hashtextextended($2::text || ':' || $1::text, 0))`;

/** The lock alone, for a caller that counts and inserts in one statement of its own. */
export async function lockCounted(
  runner: CountLimitRunner,
  kind: CountedKind,
  ownerId: string,
): Promise<void> {
  await runner.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`${kind}:${ownerId}`]);
}
