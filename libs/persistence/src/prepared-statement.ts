import { createHash } from 'node:crypto';
import { QueryFailedError, type EntityManager } from 'typeorm';
import { txManager, type Tx } from './transaction';

/** The part of node-postgres' client that a named statement needs. */
interface PgClient {
  query(config: { name: string; text: string; values: readonly unknown[] }): Promise<{ rows: unknown[] }>;
}

/**
 * At most this many texts are ever prepared (per process, so per connection too); past it a new text
 * runs unnamed. A safety valve: a caller that put a value into its text instead of a parameter would
 * otherwise grow every connection's statement cache without bound.
 */
export const MAX_PREPARED_TEXTS = 1000;
const names = new Map<string, string>();

/**
 * A statement's name on the connection: a digest of its text, so one text always has one name (node-postgres
 * refuses one name for two texts) and texts that differ only by their number of rows get names of their own.
 * Null once MAX_PREPARED_TEXTS other texts have names.
 */
export function statementName(text: string): string | null {
  let name = names.get(text);
  if (!name) {
    if (names.size >= MAX_PREPARED_TEXTS) return null;
    name = `s${createHash('sha256').update(text).digest('base64url').slice(0, 22)}`;
    names.set(text, name);
  }
  return name;
}

/**
 * Runs a statement of a hot path as a named prepared statement on the transaction's connection:
 * PostgreSQL parses and plans it once per connection instead of on every call (a payment's seven
 * statements were seven Parse messages each time, about half of PostgreSQL's time on them, issue 23's
 * bench). TypeORM's `query` sends every statement unnamed, so this asks the transaction's query runner
 * for its connection (`QueryRunner.connect`, public API) and names the statement there. Failures come
 * back as TypeORM's `QueryFailedError`, as from `query`, so error mapping does not depend on the path.
 *
 * For statements with a bounded set of texts only (one per shape, e.g. per number of rows): each text
 * stays prepared on its connection for the connection's life.
 */
export async function queryPrepared<R>(
  tx: Tx | EntityManager,
  text: string,
  params: readonly unknown[],
): Promise<R[]> {
  // A Tx is its transaction's entity manager (transaction.ts), so both open the same way.
  const m = txManager(tx as Tx);
  const runner = m.queryRunner;
  const name = statementName(text);
  if (!runner || !name) return (await m.query(text, params as unknown[])) as R[];
  const client = (await runner.connect()) as PgClient;
  try {
    const res = await client.query({ name, text, values: params });
    return res.rows as R[];
  } catch (err) {
    throw new QueryFailedError(text, params as unknown[], err as Error);
  }
}
