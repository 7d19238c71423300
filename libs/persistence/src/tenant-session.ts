import { QueryFailedError, type DataSource, type EntityManager } from 'typeorm';
import type { Pool, QueryConfig, QueryResult, QueryResultRow } from 'pg';
import { poolOf } from './pg-pool';
import { statementName } from './prepared-statement';
import { TenantStatementQuery } from './tenant-statement-query';
import type { TenantIdentity } from './tenant-pools';

/** Switches to the tenant role and sets the tenant, both transaction-local: one statement. */
export const SET_TENANT = `SELECT set_config($1, $2, true), set_config('role', $3, true)`;

/** The part of node-postgres' client used here. */
interface PgClient {
  query(config: { name?: string; text: string; values?: readonly unknown[] }): Promise<TenantResult<unknown>>;
  escapeLiteral(value: string): string;
}

/** A statement's rows and how many rows it returned or changed (an UPDATE's or DELETE's count). */
export interface TenantResult<R> {
  rows: R[];
  rowCount: number | null;
}

/** Transactions already switched to a tenant: their entity manager -> setting -> tenant. */
const entered = new WeakMap<EntityManager, Map<string, string>>();

/** Records that the transaction of `m` runs as `who` (inTenantTransaction did it). */
export function markTenant(m: EntityManager, who: TenantIdentity): void {
  const settings = entered.get(m) ?? new Map<string, string>();
  settings.set(who.setting, who.tenant);
  entered.set(m, settings);
}

/** The transaction's tenant settings now, to restore after a savepoint is rolled back. */
export function tenantMarks(m: EntityManager): Map<string, string> {
  return new Map(entered.get(m) ?? []);
}

export function restoreTenantMarks(m: EntityManager, marks: Map<string, string>): void {
  entered.set(m, marks);
}

function isEntered(m: EntityManager, who: TenantIdentity): boolean {
  return entered.get(m)?.get(who.setting) === who.tenant;
}

const failed = (text: string, params: readonly unknown[]) => (err: Error) => {
  throw new QueryFailedError(text, params as unknown[], err);
};

/** Sets the tenant in the transaction of `m`, once per transaction (one round trip the first time). */
async function enter(m: EntityManager, who: TenantIdentity): Promise<PgClient> {
  const runner = m.queryRunner;
  if (!runner) throw new Error('a tenant statement in a transaction needs its query runner');
  const client = (await runner.connect()) as PgClient;
  if (!isEntered(m, who)) {
    const values = [who.setting, who.tenant, who.role];
    await client
      .query({ name: statementName(SET_TENANT) ?? undefined, text: SET_TENANT, values })
      .catch(failed(SET_TENANT, values));
    markTenant(m, who);
  }
  return client;
}

/**
 * Opens a transaction of its own on a pooled connection and sets the tenant in it, in one round trip:
 * BEGIN and the setting go as one simple-protocol message (two statements, so no parameters: the
 * values are quoted by node-postgres' escapeLiteral).
 */
async function open(client: PgClient, who: TenantIdentity): Promise<void> {
  const text = `BEGIN; SELECT set_config(${client.escapeLiteral(who.setting)}, ${client.escapeLiteral(
    who.tenant,
  )}, true), set_config('role', ${client.escapeLiteral(who.role)}, true)`;
  await client.query({ text }).catch(failed(SET_TENANT, [who.setting, who.tenant, who.role]));
}

async function close(client: PgClient, ok: boolean): Promise<void> {
  if (ok) await client.query({ text: 'COMMIT' });
  else await client.query({ text: 'ROLLBACK' }).catch(() => undefined);
}

/**
 * Runs one statement as `who`: in the transaction of `m` when given (the tenant set once per
 * transaction), else in a transaction of its own on a pooled connection (BEGIN with the setting,
 * the statement, COMMIT: three round trips). `prepared` runs it as a named prepared statement
 * (queryPrepared's rule: a bounded set of texts only).
 */
export async function tenantStatement<R>(
  ds: DataSource,
  m: EntityManager | undefined,
  who: TenantIdentity,
  text: string,
  params: readonly unknown[],
  prepared: boolean,
): Promise<TenantResult<R>> {
  const run = (client: PgClient) => {
    // Through the DataSource's logger, as TypeORM's own queries (query logging, tests counting statements).
    ds.logger.logQuery(text, params as unknown[]);
    return client
      .query({ name: prepared ? (statementName(text) ?? undefined) : undefined, text, values: params })
      .catch(failed(text, params)) as Promise<TenantResult<R>>;
  };
  if (m) return run(await enter(m, who));
  const pool = poolOf(ds);
  if (!pool) return asTenant(ds, undefined, who, async (own) => run(await enter(own, who)));
  ds.logger.logQuery(text, params as unknown[]);
  return alone<R>(pool, who, {
    text,
    values: params as unknown[],
    name: prepared ? (statementName(text) ?? undefined) : undefined,
  }).catch(failed(text, params)) as Promise<TenantResult<R>>;
}

/** Pooled connections on which SET_TENANT is prepared (under setTenantName()). */
const settingPrepared = new WeakSet<object>();
// A function, not a constant: prepared-statement.ts and this module import each other (through
// transaction.ts), and a call at load time would run before prepared-statement's own constants exist.
const setTenantName = (): string => statementName(SET_TENANT) ?? 'platform_set_tenant';

/**
 * One statement outside any transaction, as `who`, in one round trip (TenantStatementQuery: the setting
 * and the statement in one implicit transaction, no BEGIN or COMMIT). The first use of a pooled
 * connection prepares the setting on it first (one round trip in the connection's life).
 */
async function alone<R>(
  pool: Pool,
  who: TenantIdentity,
  config: QueryConfig,
): Promise<QueryResult<R & QueryResultRow>> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    const values = [who.setting, who.tenant, who.role];
    if (!settingPrepared.has(client)) {
      await client.query({ name: setTenantName(), text: SET_TENANT, values });
      settingPrepared.add(client);
    }
    return await new Promise<QueryResult<R & QueryResultRow>>((resolve, reject) => {
      client.query(
        new TenantStatementQuery(config, { name: setTenantName(), values }, (err, result) =>
          err ? reject(err) : resolve(result as QueryResult<R & QueryResultRow>),
        ),
      );
    });
  } catch (err) {
    // A connection that failed below the statement (a protocol error) is not given back as if sound.
    if (!(err as { code?: unknown }).code) broken = err as Error;
    throw err;
  } finally {
    client.release(broken);
  }
}

/**
 * Runs `work` (TypeORM calls on the manager it gets) as `who`: inside the transaction of `m` when given
 * (the tenant set once per transaction), else in a transaction of its own whose BEGIN carries the
 * setting. Work must not open transactions of its own (TypeORM's find/insert/update/delete and query
 * builders do not).
 */
export async function asTenant<R>(
  ds: DataSource,
  m: EntityManager | undefined,
  who: TenantIdentity,
  work: (m: EntityManager) => Promise<R>,
): Promise<R> {
  if (m) {
    await enter(m, who);
    return work(m);
  }
  const runner = ds.createQueryRunner();
  try {
    const client = (await runner.connect()) as PgClient;
    let result: R;
    try {
      await open(client, who);
      markTenant(runner.manager, who);
      result = await work(runner.manager);
    } catch (err) {
      await close(client, false);
      throw err;
    }
    await close(client, true);
    return result;
  } finally {
    await runner.release();
  }
}
