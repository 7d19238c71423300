import type {
  DataSource,
  DeepPartial,
  EntityManager,
  EntityMetadata,
  EntityTarget,
  FindOptionsOrder,
  FindOptionsWhere,
  ObjectLiteral,
  Repository,
  SelectQueryBuilder,
} from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { txManager, type Tx } from './transaction';
import type { TenantIdentity } from './tenant-pools';
import { asTenant, restoreTenantMarks, tenantMarks, tenantStatement } from './tenant-session';

/** Conditions on a tenant-owned table, minus the tenant column: the tenant comes from its own argument. */
export type TenantWhere<E, K extends keyof E> = Omit<FindOptionsWhere<E>, K>;

export interface PageOptions<E> {
  order: FindOptionsOrder<E>;
  offset: number;
  limit: number;
}

/** The role tenant statements of a schema run as (created by each service's tenant-isolation migration). */
export const tenantRole = (schema: string): string => `${schema}_tenant`;
/** The setting row-level security reads the tenant from: `<schema>.<tenant column>`. */
export const tenantSetting = (schema: string, column: string): string => `${schema}.${column}`;

/** Where a repository's tenant lives: the schema and the tenant column of its tables. */
export interface TenantColumn {
  schema: string;
  column: string;
}

/**
 * The tenant door (decision 0032): raw SQL with the tenant bound as `$1`, and TypeORM work, both run
 * as the schema's tenant role with the tenant set (`<schema>.<tenant column>`), so the tables' forced
 * row-level security policy backs every condition: a statement that still forgets its tenant sees and
 * writes only that tenant's rows. The DataSource is private: a subclass cannot reach a table around
 * the door (and a lint rule bans `txManager` and raw managers in `*.repository.ts`; deliberate
 * cross-tenant repositories are named `*.unscoped.repository.ts`). Extend it directly for tables
 * without an entity (`TenantScopedTables`), or through TenantScopedRepository for an entity's table.
 */
export abstract class TenantScopedTables<T> {
  private identity?: { role: string; setting: string; column: string };

  protected constructor(
    private readonly ds: DataSource,
    /** The schema and tenant column, read when the first statement runs (the metadata is built by then). */
    private readonly where: TenantColumn | ((ds: DataSource) => TenantColumn),
  ) {}

  /** An entity's metadata, for a statement that returns its rows (metadata only, no query). */
  protected metadataOf(entity: EntityTarget<ObjectLiteral>): EntityMetadata {
    return this.ds.getMetadata(entity);
  }

  /** The database name of the tenant column. */
  protected get tenantColumn(): string {
    return this.who('').column;
  }

  private who(tenant: T | string): TenantIdentity & { column: string } {
    if (!this.identity) {
      const { schema, column } = typeof this.where === 'function' ? this.where(this.ds) : this.where;
      this.identity = { role: tenantRole(schema), setting: tenantSetting(schema, column), column };
    }
    return { ...this.identity, tenant: String(tenant) };
  }

  /**
   * The tenant-bound door for raw SQL: `$1` is always the tenant, `params` follow as `$2`, `$3`...
   * (PostgreSQL refuses a text that never uses `$1`). Runs in `tx` when given, else in a transaction
   * of its own; as the tenant either way.
   */
  protected async sql<R>(tenant: T, text: string, params: readonly unknown[] = [], tx?: Tx): Promise<R[]> {
    return (await this.statement<R>(tenant, text, params, tx, false)).rows;
  }

  /** `sql` for an UPDATE or DELETE: how many rows it changed. */
  protected async sqlCount(
    tenant: T,
    text: string,
    params: readonly unknown[] = [],
    tx?: Tx,
  ): Promise<number> {
    return (await this.statement(tenant, text, params, tx, false)).rowCount ?? 0;
  }

  /**
   * `sql` as a named prepared statement on the connection (queryPrepared's rule: hot paths with a
   * bounded set of texts, e.g. one per number of rows): parsed and planned once per connection.
   */
  protected async sqlPrepared<R>(tenant: T, text: string, params: readonly unknown[], tx?: Tx): Promise<R[]> {
    return (await this.statement<R>(tenant, text, params, tx, true)).rows;
  }

  private statement<R>(
    tenant: T,
    text: string,
    params: readonly unknown[],
    tx: Tx | undefined,
    prepared: boolean,
  ) {
    return tenantStatement<R>(
      this.ds,
      tx && txManager(tx),
      this.who(tenant),
      text,
      [tenant, ...params],
      prepared,
    );
  }

  /**
   * TypeORM work on an entity manager that runs as the tenant (in `tx` when given): for what the door's
   * other methods do not cover (locks, joins with other entities). Row-level security backs it; its
   * conditions still name the tenant.
   */
  protected asTenant<R>(tenant: T, work: (m: EntityManager) => Promise<R>, tx?: Tx): Promise<R> {
    return asTenant(this.ds, tx && txManager(tx), this.who(tenant), work);
  }

  /**
   * Runs `work` in `tx` and then undoes everything it wrote (a savepoint rolled back): for previews.
   * The tenant settings the transaction had are kept as they were before the savepoint.
   */
  protected async undone<R>(tx: Tx, work: () => Promise<R>): Promise<R> {
    const m = txManager(tx);
    const marks = tenantMarks(m);
    await m.query('SAVEPOINT tenant_scoped_undone');
    try {
      return await work();
    } finally {
      await m.query('ROLLBACK TO SAVEPOINT tenant_scoped_undone');
      await m.query('RELEASE SAVEPOINT tenant_scoped_undone');
      restoreTenantMarks(m, marks);
    }
  }
}

/**
 * Base of every repository over a tenant-owned entity's table: the tenant door (TenantScopedTables)
 * with its schema and tenant column read from the entity's metadata, and typed methods. Each takes the
 * tenant as a required, typed argument (the entity's branded tenant column type, e.g. `OrganizationId`),
 * and the `where` types leave the tenant column out, so a call that forgets or overrides its tenant
 * does not compile.
 */
export abstract class TenantScopedRepository<
  E extends ObjectLiteral,
  K extends keyof E & string,
> extends TenantScopedTables<E[K]> {
  protected constructor(
    ds: DataSource,
    private readonly entity: EntityTarget<E>,
    /** The entity property holding the tenant id. */
    protected readonly tenantKey: K,
  ) {
    super(ds, (source) => {
      const meta = source.getMetadata(entity);
      const column = meta.findColumnWithPropertyName(tenantKey)?.databaseName;
      if (!column) throw new Error(`${String(tenantKey)} is not a column`);
      return { schema: meta.schema ?? 'public', column };
    });
  }

  /** The entity's metadata (column names for statements built by hand). */
  protected get metadata(): EntityMetadata {
    return this.metadataOf(this.entity);
  }

  private table<R>(tenant: E[K], tx: Tx | undefined, work: (t: Repository<E>) => Promise<R>): Promise<R> {
    return this.asTenant(tenant, (m) => work(m.getRepository(this.entity)), tx);
  }

  private scoped(tenant: E[K], where: TenantWhere<E, K> = {} as TenantWhere<E, K>): FindOptionsWhere<E> {
    return { ...where, [this.tenantKey]: tenant } as FindOptionsWhere<E>;
  }

  protected find(
    tenant: E[K],
    where?: TenantWhere<E, K>,
    order?: FindOptionsOrder<E>,
    tx?: Tx,
  ): Promise<E[]> {
    return this.table(tenant, tx, (t) => t.find({ where: this.scoped(tenant, where), order }));
  }

  protected findOne(tenant: E[K], where: TenantWhere<E, K>, tx?: Tx): Promise<E | null> {
    return this.table(tenant, tx, (t) => t.findOneBy(this.scoped(tenant, where)));
  }

  protected exists(tenant: E[K], where: TenantWhere<E, K>, tx?: Tx): Promise<boolean> {
    return this.table(tenant, tx, (t) => t.existsBy(this.scoped(tenant, where)));
  }

  /** How many of the tenant's rows match any of `where` (each alternative scoped to the tenant). */
  protected count(tenant: E[K], where: TenantWhere<E, K>[], tx?: Tx): Promise<number> {
    return this.table(tenant, tx, (t) => t.countBy(where.map((w) => this.scoped(tenant, w))));
  }

  /** One page and the total of matching rows. */
  protected page(
    tenant: E[K],
    where: TenantWhere<E, K>,
    page: PageOptions<E>,
    tx?: Tx,
  ): Promise<[E[], number]> {
    return this.table(tenant, tx, (t) =>
      t.findAndCount({
        where: this.scoped(tenant, where),
        order: page.order,
        skip: page.offset,
        take: page.limit,
      }),
    );
  }

  protected async insert(tenant: E[K], rows: Omit<DeepPartial<E>, K>[], tx?: Tx): Promise<void> {
    if (!rows.length) return;
    await this.table(tenant, tx, (t) =>
      t.insert(rows.map((r) => ({ ...r, [this.tenantKey]: tenant })) as never),
    );
  }

  /** Inserts the rows that do not collide with an existing key; returns how many were inserted. */
  protected async insertIfAbsent(tenant: E[K], rows: Omit<DeepPartial<E>, K>[], tx?: Tx): Promise<number> {
    if (!rows.length) return 0;
    const res = await this.table(tenant, tx, (t) =>
      t
        .createQueryBuilder()
        .insert()
        .values(rows.map((r) => ({ ...r, [this.tenantKey]: tenant })) as never)
        .orIgnore()
        .execute(),
    );
    return (res.raw as unknown[]).length;
  }

  /** Inserts and returns the generated primary keys, in order. */
  protected async insertReturning(tenant: E[K], rows: Omit<DeepPartial<E>, K>[], tx?: Tx): Promise<E[]> {
    const res = await this.table(tenant, tx, (t) =>
      t
        .createQueryBuilder()
        .insert()
        .values(rows.map((r) => ({ ...r, [this.tenantKey]: tenant })) as never)
        .execute(),
    );
    return res.identifiers as E[];
  }

  /** Rows affected. `set` may use SQL expressions, e.g. `{ version: () => 'version + 1' }`. */
  protected async update(
    tenant: E[K],
    where: TenantWhere<E, K>,
    set: Omit<QueryDeepPartialEntity<E>, K>,
    tx?: Tx,
  ): Promise<number> {
    const res = await this.table(tenant, tx, (t) =>
      t.update(this.scoped(tenant, where), set as QueryDeepPartialEntity<E>),
    );
    return res.affected ?? 0;
  }

  /** Rows affected. */
  protected async delete(tenant: E[K], where: TenantWhere<E, K>, tx?: Tx): Promise<number> {
    const res = await this.table(tenant, tx, (t) => t.delete(this.scoped(tenant, where)));
    return res.affected ?? 0;
  }

  /**
   * A query built on a builder already restricted to the tenant (`<alias>.<tenant column> = :tenant`),
   * run by `run` as the tenant. Add conditions with `andWhere` only: `where` would replace the tenant
   * condition, `orWhere` widen it (row-level security still holds it to the tenant).
   */
  protected select<R>(
    tenant: E[K],
    alias: string,
    run: (q: SelectQueryBuilder<E>) => Promise<R>,
    tx?: Tx,
  ): Promise<R> {
    const column = this.tenantColumn;
    return this.table(tenant, tx, (t) =>
      run(t.createQueryBuilder(alias).where(`${alias}.${column} = :__tenant`, { __tenant: tenant })),
    );
  }
}
